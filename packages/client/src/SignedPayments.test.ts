import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeSignedPayments, type SignedPayment } from "./SignedPayments.ts"

/** A clock the test moves, and a signer that counts its signatures and makes a new payment each time. */
const fixture = () => {
  let nowMs = 1_000
  let signatures = 0
  const payments = makeSignedPayments<string>(() => nowMs)
  const sign = (holdMs = Number.POSITIVE_INFINITY) =>
    Effect.sync((): SignedPayment => {
      signatures += 1
      return { transaction: `tx-${signatures}`, signature: `sig-${signatures}`, digest: `digest-${signatures}`, expiresAtMs: holdMs }
    })
  return {
    payments,
    sign,
    signatures: () => signatures,
    advance: (ms: number) => {
      nowMs += ms
    }
  }
}

describe("SignedPayments: one signed payment per challenge nonce", () => {
  it.effect("a retry of the same challenge gets the same signed bytes, never a second payment", () =>
    Effect.gen(function*() {
      const { payments, sign, signatures } = fixture()
      const first = yield* payments.once("n1", 10_000, sign())
      const again = yield* payments.once("n1", 10_000, sign())
      assert.deepStrictEqual(again, first)
      assert.strictEqual(signatures(), 1)
      assert.deepStrictEqual(yield* payments.signed("n1"), first)
      // Another challenge is another payment.
      assert.notDeepEqual(yield* payments.once("n2", 10_000, sign()), first)
      assert.strictEqual(signatures(), 2)
    }))

  // Live: the signing really takes time, so the asks overlap.
  it.live("concurrent asks for one nonce share one signing", () =>
    Effect.gen(function*() {
      const { payments, sign, signatures } = fixture()
      const slow = Effect.andThen(Effect.sleep("20 millis"), sign())
      const all = yield* Effect.all(Array.from({ length: 5 }, () => payments.once("n1", 10_000, slow)), { concurrency: "unbounded" })
      assert.strictEqual(new Set(all.map((p) => p.transaction)).size, 1)
      assert.strictEqual(signatures(), 1)
    }))

  it.effect("a signing that failed signed nothing: the challenge may be tried again", () =>
    Effect.gen(function*() {
      const { payments, sign, signatures } = fixture()
      const failed = yield* Effect.exit(payments.once("n1", 10_000, Effect.fail("station down")))
      assert.isTrue(Exit.isFailure(failed))
      assert.isUndefined(yield* payments.signed("n1"))
      const paid = yield* payments.once("n1", 10_000, sign())
      assert.strictEqual(paid.transaction, "tx-1")
      assert.strictEqual(signatures(), 1)
    }))

  it.effect("a payment the gateway says must be signed again is forgotten; the same challenge then signs anew", () =>
    Effect.gen(function*() {
      const { payments, sign, signatures } = fixture()
      yield* payments.once("n1", 10_000, sign())
      yield* payments.forget("n1")
      assert.isUndefined(yield* payments.signed("n1"))
      assert.strictEqual((yield* payments.once("n1", 10_000, sign())).transaction, "tx-2")
      assert.strictEqual(signatures(), 2)
    }))

  it.effect("a payment whose challenge expired is dropped; the gas station's shorter hold ends it sooner", () =>
    Effect.gen(function*() {
      const { payments, sign, advance } = fixture()
      yield* payments.once("n1", 5_000, sign())
      yield* payments.once("held", 5_000, sign(3_000))
      advance(2_500)
      assert.isDefined(yield* payments.signed("n1"))
      assert.isUndefined(yield* payments.signed("held"))
      advance(2_000)
      assert.isUndefined(yield* payments.signed("n1"))
      // Past its expiry the challenge is no longer presentable; asked again, it is a new signing.
      assert.strictEqual((yield* payments.once("n1", 9_000, sign())).transaction, "tx-3")
    }))
})
