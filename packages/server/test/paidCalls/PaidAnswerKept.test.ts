import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { HeldUpstream } from "../support/HeldUpstream.ts"
import { gatewayFor, paidService } from "../support/PaidEnv.ts"

/** A gateway whose only upstream is the held one, keeping answers `retentionMs`. */
const heldEnv = (retentionMs: number) =>
  Layer.unwrap(Effect.map(HeldUpstream, (held) => gatewayFor([held.url], { paidAnswerRetentionMs: retentionMs }))).pipe(
    Layer.provideMerge(HeldUpstream.layer)
  )

/** A paid GET whose caller hangs up while the seller is still answering; the credential to present again. */
const hangUpMidForward = Effect.gen(function*() {
  const upstream = yield* HeldUpstream
  const { entry, agentKey, manifest } = yield* paidService(upstream.url)
  const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
  const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
  const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
  const gate = upstream.hold()
  const caller = new AbortController()
  const call = fetch(entry.resourceUrl, { headers: { "payment-signature": paid }, signal: caller.signal }).catch(() => undefined)
  yield* Effect.promise(() => gate.arrived)
  caller.abort()
  yield* Effect.promise(() => call)
  gate.release()
  // The forward finishes and is settled although nobody is listening any more.
  yield* Effect.sleep("300 millis")
  const calls = upstream.calls.length
  const again = () => fetch(entry.resourceUrl, { headers: { "payment-signature": paid } }).then(async (r) => ({ status: r.status, text: await r.text() }))
  return { again, calls, upstream }
})

/**
 * Threat: a payer losing what it paid for. A caller that disconnects during the
 * forward must get the seller's answer when it presents the same credential
 * again, within the retention window, and the seller is not called twice.
 */
describe("security: a paid answer is kept for its payer", () => {
  layer(heldEnv(60_000), { excludeTestServices: true })((it) => {
    it.effect("a caller that hangs up mid-forward gets the stored answer on retry, without a second forward", () =>
      Effect.gen(function*() {
        const { again, calls, upstream } = yield* hangUpMidForward
        const retried = yield* Effect.promise(again)
        assert.deepStrictEqual(retried, { status: 200, text: JSON.stringify({ answer: 42 }) })
        assert.strictEqual(upstream.calls.length, calls, "the seller was called once")
      }))
  })

  layer(heldEnv(500), { excludeTestServices: true })((it) => {
    it.effect("after the retention window the same credential is refused clearly, and nothing is forwarded", () =>
      Effect.gen(function*() {
        const { again, calls, upstream } = yield* hangUpMidForward
        yield* Effect.sleep("600 millis")
        const late = yield* Effect.promise(again)
        assert.strictEqual(late.status, 409)
        assert.deepInclude(JSON.parse(late.text), { code: "CONFLICT", reason: "paid_answer_expired" })
        assert.strictEqual(upstream.calls.length, calls)
      }))
  })
})
