import { randomBytes } from "node:crypto"
import { toBase58 } from "@mysten/sui/utils"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectRateLimited } from "../support/Assertions.ts"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { paidService, rawRequest } from "../support/PaidEnv.ts"
import { awayFromMinuteEdge } from "../support/RawPost.ts"
import { paidCallEnv } from "../support/Scenario.ts"
import { Upstream } from "../support/Upstream.ts"

const LIMIT = 3

/** A well-formed digest no transaction has. */
const madeUp = () => toBase58(randomBytes(32))

/**
 * Threat: a client that makes the gateway read the chain without end, by presenting made-up digests on
 * challenges it mints for free. Failed presentations are counted per client in the store; past
 * PAYMENT_FAILURES_PER_MINUTE the next is refused before any chain read, with 429 and Retry-After.
 */
describe("security: failed payment presentations are limited per client", () => {
  layer(paidCallEnv({ paymentFailuresPerMinute: LIMIT }), { excludeTestServices: true })((it) => {
    it.effect("made-up digests are refused after the limit with 429; another client, and paying, are unaffected", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        yield* awayFromMinuteEdge()
        for (let i = 0; i < LIMIT; i++) {
          const header = yield* credential(entry.resourceUrl, terms, madeUp(), { signer: agentKey })
          const answer = yield* rawRequest(entry.resourceUrl, { headers: { "payment-signature": header } })
          assert.strictEqual(answer.status, 409, answer.text)
          assert.strictEqual(JSON.parse(answer.text).code, "NOT_FINAL")
        }
        const header = yield* credential(entry.resourceUrl, terms, madeUp(), { signer: agentKey })
        const refused = yield* rawRequest(entry.resourceUrl, { headers: { "payment-signature": header } })
        expectRateLimited(
          { ...refused, body: JSON.parse(refused.text) },
          "payment_presentations_rate_limited",
          "Too many payment credentials from this client failed: try again after Retry-After seconds"
        )

        // A call without a credential still gets its 402: only presentations are limited.
        assert.strictEqual((yield* rawRequest(entry.resourceUrl, {})).status, 402)

        // Another client (a second local address) pays and is served.
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
        const served = yield* rawRequest(entry.resourceUrl, { headers: { "payment-signature": paid }, localAddress: "127.0.0.2" })
        assert.strictEqual(served.status, 200, served.text)
      }))

    it.effect("a burst of made-up digests at once gets no more chain reads than the limit", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey } = yield* paidService(upstream.url)
        const { terms } = yield* challengeOf(entry.resourceUrl)
        yield* awayFromMinuteEdge()
        const headers = yield* Effect.forEach(Array.from({ length: 4 * LIMIT }), () => credential(entry.resourceUrl, terms, madeUp(), { signer: agentKey }))
        const answers = yield* Effect.forEach(
          headers,
          (header) => rawRequest(entry.resourceUrl, { headers: { "payment-signature": header }, localAddress: "127.0.0.3" }),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(answers.filter((a) => a.status === 409).length, LIMIT, answers.map((a) => a.status).join(","))
        assert.strictEqual(answers.filter((a) => a.status === 429).length, 3 * LIMIT)
      }))
  })
})
