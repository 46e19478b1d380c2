import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const UPSTREAM_TOKEN = "upstream-secret-for-tests"

const Env = paidCallEnv()

/** An owner with a live service and a finalized signer for a fresh agent, and the agent SDK over its manifest. */
const provision = (price: bigint, budget: bigint, perPayment: bigint) =>
  Effect.gen(function*() {
    const baseUrl = yield* BaseUrl
    const ledger = yield* TestLedger
    const upstream = yield* Upstream
    const client = yield* makeApiClient(baseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const { entry, payTo } = yield* liveService(client, { price, upstreamUrl: upstream.url, upstreamCredential: UPSTREAM_TOKEN })

    const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, { key: `paid-${entry.id}`, budget, perPayment })
    // These tests pin the upfront flow; sign-first has its own (SignFirst*.test.ts).
    const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client, payment: "upfront" })
    return { client, asOwner, owner, ledger, agent, upstream, entry, signerId, payTo }
  })

describe("paid calls", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("a 402 challenge, an on-chain payment by the agent, and one forward with the seller's credential", () =>
      Effect.gen(function*() {
        const { agent, upstream, entry, payTo } = yield* provision(40n, 1000n, 100n)
        const unpaid = yield* Effect.promise(() => fetch(entry.resourceUrl))
        assert.strictEqual(unpaid.status, 402)
        assert.match(unpaid.headers.get("www-authenticate") ?? "", /^Payment id="[^"]+", realm="[^"]+", method="sui", intent="charge"/)
        const challenge = yield* Effect.promise(() => unpaid.json() as Promise<{ x402Version: number; accepts: Array<{ amount: string; payTo: string }> }>)
        assert.strictEqual(challenge.x402Version, 2)
        assert.strictEqual(challenge.accepts[0]?.amount, "40")
        assert.strictEqual(challenge.accepts[0]?.payTo, payTo)

        const before = upstream.calls.length
        const paid = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(paid.response.status, 200)
        assert.deepStrictEqual(yield* Effect.promise(() => paid.response.json()), { answer: 42, call: before + 1 })
        assert.strictEqual(paid.receipt?.success, true)
        assert.strictEqual(paid.receipt?.transaction, paid.digest)
        assert.strictEqual(upstream.calls.length, before + 1)
        assert.strictEqual(upstream.calls[before]?.headers.authorization, `Bearer ${UPSTREAM_TOKEN}`)
      }))

    it.effect("a replayed credential gets the kept answer again and forwards nothing", () =>
      Effect.gen(function*() {
        const { agent, upstream, entry } = yield* provision(40n, 1000n, 100n)
        const paid = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(paid.response.status, 200)
        const answer = yield* Effect.promise(() => paid.response.text())
        const calls = upstream.calls.length
        const credential = paid.credential ?? ""
        const replay = yield* Effect.promise(() => fetch(entry.resourceUrl, { headers: { "payment-signature": credential } }))
        assert.strictEqual(replay.status, 200)
        assert.strictEqual(yield* Effect.promise(() => replay.text()), answer)
        assert.strictEqual(replay.headers.get("payment-response"), paid.response.headers.get("payment-response"))
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("over-cap prices are refused by the SDK; a paused grant cannot pay; after resume it pays again", () =>
      Effect.gen(function*() {
        const expensive = yield* provision(150n, 1000n, 100n)
        const refused = yield* expensive.agent.fetchPaid(expensive.entry.resourceUrl).pipe(Effect.flip)
        assert.strictEqual(refused._tag, "PaymentRefused")
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /^amount: 150 exceeds the per-payment cap 100/)

        const { agent, entry, client, asOwner, owner, ledger, signerId } = yield* provision(40n, 1000n, 100n)
        const pause = yield* client.delegatedSigners.preparePause({ params: { id: signerId } }).pipe(asOwner)
        for (const kind of pause.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizePause({ params: { id: signerId, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
        }
        const paused = yield* agent.fetchPaid(entry.resourceUrl).pipe(Effect.flip)
        assert.match(paused._tag === "PaymentRefused" ? paused.reason : "", /EPaused/)

        const resume = yield* client.delegatedSigners.prepareResume({ params: { id: signerId } }).pipe(asOwner)
        for (const kind of resume.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizeResume({ params: { id: signerId, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
        }
        assert.strictEqual((yield* agent.fetchPaid(entry.resourceUrl)).response.status, 200)
      }))

    it.effect("the budget holds across payments", () =>
      Effect.gen(function*() {
        const { agent, entry } = yield* provision(40n, 100n, 50n)
        assert.strictEqual((yield* agent.fetchPaid(entry.resourceUrl)).response.status, 200)
        assert.strictEqual((yield* agent.fetchPaid(entry.resourceUrl)).response.status, 200)
        const third = yield* agent.fetchPaid(entry.resourceUrl).pipe(Effect.flip)
        assert.match(third._tag === "PaymentRefused" ? third.reason : "", /EExceedsSessionCap/)
      }))
  })
})

describe("paid calls under concurrency", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("20 concurrent retries of one credential after a failed forward make exactly one forward, whose answer the others get", () =>
      Effect.gen(function*() {
        const { agent, upstream, entry } = yield* provision(40n, 1000n, 100n)
        upstream.failing = true
        const failed = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(failed.response.status, 503)
        const body = yield* Effect.promise(() => failed.response.json() as Promise<{ code: string; reason: string }>)
        assert.strictEqual(body.reason, "upstream_failed_retry_with_the_same_credential")
        upstream.failing = false
        const before = upstream.calls.length
        const credential = failed.credential ?? ""
        const statuses = yield* Effect.forEach(
          Array.from({ length: 20 }, () => credential),
          (header) => Effect.promise(() => fetch(entry.resourceUrl, { headers: { "payment-signature": header } }).then((r) => r.status)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(upstream.calls.length, before + 1)
        assert.isTrue(statuses.some((s) => s === 200) && statuses.every((s) => s === 200 || s === 409), JSON.stringify(statuses))
      }))
  })
})
