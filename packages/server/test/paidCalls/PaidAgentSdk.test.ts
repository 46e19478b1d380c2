import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeAgent } from "@gateway/client/AgentSdk"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { paidCallEnv } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { Upstream } from "../support/Upstream.ts"
import { paidService, serve } from "../support/PaidEnv.ts"

/**
 * Threat: a website (or a man in the middle of an agent's traffic) getting an
 * agent to pay: a 402 served by a foreign origin, copied from the gateway's own
 * challenge, or naming another package. And an agent paying twice for one
 * call when its call is retried.
 */
describe("security: the agent SDK pays only its gateway, once per call", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("a 402 from a foreign origin, even a copy of the gateway's own challenge, is not paid", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const real = yield* Effect.promise(() => fetch(entry.resourceUrl))
        const header = real.headers.get("payment-required") ?? ""
        const foreign = yield* serve((_request, response) => {
          response.writeHead(402, { "payment-required": header, "content-type": "application/json" })
          response.end("{}")
        })
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        const refused = yield* Effect.flip(agent.fetchPaid(`${foreign.url}${new URL(entry.resourceUrl).pathname}`))
        assert.strictEqual(refused._tag, "PaymentRefused")
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /^origin: /)

        const otherPackage = makeAgent({ manifest: { ...manifest, packageId: ObjectId.make(`0x${"ab".repeat(32)}`) }, signer: agentKey, client: ledger.client })
        const wrongPackage = yield* Effect.flip(otherPackage.fetchPaid(entry.resourceUrl))
        assert.match(wrongPackage._tag === "PaymentRefused" ? wrongPackage.reason : "", /^package: /)
      }))

    it.effect("a call retried after the seller failed re-presents its payment instead of paying again", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        upstream.failing = true
        const failed = yield* agent.fetchPaid(entry.resourceUrl)
        upstream.failing = false
        assert.strictEqual(failed.response.status, 503)
        const retried = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(retried.response.status, 200)
        assert.strictEqual(retried.digest, failed.digest, "the retry used the same payment")
      }))
  })
})
