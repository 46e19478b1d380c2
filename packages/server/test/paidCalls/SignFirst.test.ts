import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Layer } from "effect"
import { decodePaymentResponseHeader } from "@x402/core/http"
import { challengeOf, refs } from "../support/PayByHand.ts"
import { gatewayFor, paidService } from "../support/PaidEnv.ts"
import { executedOnChain, presentSigned, signGrantPayment, suiHeldBy } from "../support/SignByHand.ts"
import { Upstream } from "../support/Upstream.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

/** A live service, its agent, and a fresh `exact` challenge signed through the grant (not executed). */
const signedForFreshChallenge = Effect.gen(function*() {
  const upstream = yield* Upstream
  const { entry, agentKey, manifest } = yield* paidService(upstream.url)
  const { terms, nonce } = yield* challengeOf(entry.resourceUrl, "GET", "exact")
  const signed = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
  // The seller is shared by the file's tests: each counts the calls it makes.
  const callsBefore = upstream.calls.length
  const calls = () => upstream.calls.length - callsBefore
  return { upstream, calls, entry, agentKey, manifest, terms, nonce, signed }
})

/**
 * Pay only for answers: a sign-first payment is executed only after the seller answered. Threats: a payer charged
 * for a call the seller failed, paying twice for one answer, a payment executed twice or forwarded twice.
 */
describe("sign-first payments (x402 exact on Sui)", () => {
  layer(env, { excludeTestServices: true })((it) => {
    it.effect("every 402 offers exact first, with the challenge's nonce, the sui-delegate offer second and sui-session third", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry } = yield* paidService(upstream.url)
        const required = yield* Effect.promise(() =>
          fetch(entry.resourceUrl).then(async (r) => JSON.parse(Buffer.from(r.headers.get("payment-required") ?? "", "base64").toString()) as {
            accepts: ReadonlyArray<{ scheme: string; extra: { nonce: string; paymentFlow: string } }>
          })
        )
        assert.deepStrictEqual(required.accepts.map((a) => a.scheme), ["exact", "sui-delegate", "sui-session"])
        assert.strictEqual(required.accepts[0]?.extra.nonce, required.accepts[1]?.extra.nonce)
        assert.strictEqual(required.accepts[0]?.extra.paymentFlow, "authorization")
      }))

    it.effect("a signed grant payment is forwarded, then executed: the answer comes with the digest, and the seller was paid once", () =>
      Effect.gen(function*() {
        const { calls, entry, terms, signed } = yield* signedForFreshChallenge
        const before = yield* suiHeldBy(entry.payTo)
        assert.isFalse(yield* executedOnChain(signed.digest), "nothing runs before it is presented")
        const answered = yield* presentSigned(entry.resourceUrl, terms, signed)
        assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
        assert.deepInclude(answered.body, { answer: 42 })
        const receipt = decodePaymentResponseHeader(answered.paymentResponse ?? "")
        assert.deepInclude(receipt, { success: true, transaction: signed.digest })
        // Where the time went, for the bench: the chain, the seller, the gateway's own.
        assert.match(answered.serverTiming ?? "", /^chain;dur=\d+\.\d\d, seller;dur=\d+\.\d\d, gateway;dur=\d+\.\d\d$/)
        assert.isTrue(yield* executedOnChain(signed.digest))
        assert.strictEqual((yield* suiHeldBy(entry.payTo)) - before, 40n)
        // The same payment again: its kept answer, no second forward, no second execution.
        const again = yield* presentSigned(entry.resourceUrl, terms, signed)
        assert.strictEqual(again.status, 200)
        assert.strictEqual(calls(), 1)
        assert.strictEqual((yield* suiHeldBy(entry.payTo)) - before, 40n)
      }))

    it.effect("the seller fails: nothing is executed and nothing charged; the same payment, presented again once the seller is back, pays once", () =>
      Effect.gen(function*() {
        const { upstream, calls, entry, terms, signed } = yield* signedForFreshChallenge
        const before = yield* suiHeldBy(entry.payTo)
        upstream.failing = true
        const failed = yield* presentSigned(entry.resourceUrl, terms, signed)
        assert.strictEqual(failed.status, 503)
        assert.match(String(failed.body["reason"]), /nothing_charged/)
        const failedAgain = yield* presentSigned(entry.resourceUrl, terms, signed)
        assert.strictEqual(failedAgain.status, 503)
        assert.isFalse(yield* executedOnChain(signed.digest), "a failed seller costs the payer nothing")
        assert.strictEqual(yield* suiHeldBy(entry.payTo), before)
        upstream.failing = false
        const answered = yield* presentSigned(entry.resourceUrl, terms, signed)
        assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
        assert.isTrue(yield* executedOnChain(signed.digest))
        assert.strictEqual((yield* suiHeldBy(entry.payTo)) - before, 40n)
        assert.strictEqual(calls(), 3, "two failed forwards and one answered")
      }))

    it.effect("concurrent presentations of one signed payment make one forward and one execution", () =>
      Effect.gen(function*() {
        const { calls, entry, terms, signed } = yield* signedForFreshChallenge
        const before = yield* suiHeldBy(entry.payTo)
        const answers = yield* Effect.all(Array.from({ length: 4 }, () => presentSigned(entry.resourceUrl, terms, signed)), { concurrency: "unbounded" })
        assert.isAtLeast(answers.filter((a) => a.status === 200).length, 1)
        for (const a of answers) assert.include([200, 409, 503], a.status, JSON.stringify(a.body))
        assert.strictEqual(calls(), 1)
        assert.strictEqual((yield* suiHeldBy(entry.payTo)) - before, 40n)
      }))

    it.effect("a challenge is paid by one signed payment: a second one for the same nonce is refused before the seller is asked", () =>
      Effect.gen(function*() {
        const { calls, entry, agentKey, manifest, terms, nonce, signed } = yield* signedForFreshChallenge
        assert.strictEqual((yield* presentSigned(entry.resourceUrl, terms, signed)).status, 200)
        const second = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const refused = yield* presentSigned(entry.resourceUrl, terms, second)
        assert.strictEqual(refused.status, 409)
        assert.deepInclude(refused.body, { code: "CONFLICT", reason: "challenge_already_paid" })
        assert.strictEqual(calls(), 1)
        assert.isFalse(yield* executedOnChain(second.digest))
      }))

    it.effect("payments that do not pay the challenge are refused with the part named, before anything is forwarded or executed", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const callsBefore = upstream.calls.length
        const cases = [
          { overrides: { amount: 39n }, reason: /pay\.amount/ },
          { overrides: { recipient: new Ed25519Keypair().toSuiAddress() }, reason: /pay\.recipient/ },
          { overrides: { expiration: "none" as const }, reason: /expiration/ },
          { overrides: { expiration: 7n }, reason: /expiration/ },
          { overrides: { signer: new Ed25519Keypair() }, reason: /signature/ }
        ]
        for (const c of cases) {
          const { terms, nonce } = yield* challengeOf(entry.resourceUrl, "GET", "exact")
          const signed = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce, ...c.overrides })
          const refused = yield* presentSigned(entry.resourceUrl, terms, signed)
          assert.strictEqual(refused.status, 400, JSON.stringify(refused.body))
          assert.match(String(refused.body["reason"]), c.reason)
          assert.isFalse(yield* executedOnChain(signed.digest))
        }
        // Signed for another challenge's nonce: the memo is not this one's.
        const first = yield* challengeOf(entry.resourceUrl, "GET", "exact")
        const other = yield* challengeOf(entry.resourceUrl, "GET", "exact")
        const signed = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce: other.nonce })
        const refused = yield* presentSigned(entry.resourceUrl, first.terms, signed)
        assert.strictEqual(refused.status, 400)
        assert.match(String(refused.body["reason"]), /memo/)
        assert.strictEqual(upstream.calls.length, callsBefore)
      }))
  })
})
