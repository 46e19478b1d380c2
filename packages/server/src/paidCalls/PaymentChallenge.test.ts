import { assert, describe, it } from "@effect/vitest"
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { PaymentRequiredV2Schema } from "@x402/core/schemas"
import { Challenge, Credential } from "mppx"
import fc from "fast-check"
import { Schema } from "effect"
import { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { liveEntry } from "../../test/support/CatalogEntries.ts"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import type { ChallengeTerms } from "@gateway/domain/payment/SuiDelegateOffer"
import { suiChargeRequest } from "@gateway/domain/payment/SuiChargeRequest"
import { suiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { challengeHeaders, mppChallenge, mppSecretOf, paymentRequiredHeader, readCredential, readSignedCredential } from "./PaymentChallenge.ts"

const entry = (description: string, method: CatalogEntry["method"] = "GET") => liveEntry({ description, method, price: "40", activeRevision: 1 })

const terms = (description: string, method: CatalogEntry["method"] = "GET"): ChallengeTerms => ({
  nonce: "svc_0123456789abcdefghijklmnop.1.1800000000000.0123456789abcdef0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAA",
  seconds: 300,
  expiresAt: new Date(1_800_000_000_000),
  entry: entry(description, method),
  pkg: { originalId: `0x${"b".repeat(64)}`, publishedAt: `0x${"c".repeat(64)}`, registryId: `0x${"d".repeat(64)}` }
})

const DIGEST = "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqv"

/** The offers of a challenge minted away from an epoch's end: exact, sui-delegate, then sui-session. */
const bothOffers = (t: ChallengeTerms) => {
  const { accepts } = paymentRequired(t, "payment_required")
  if (accepts.length !== 3) throw new Error("expected all three offers")
  return accepts
}
const secret = mppSecretOf(new Uint8Array(32).fill(7))

describe("the PAYMENT-REQUIRED header", () => {
  it("is byte for byte what @x402/core encodes, decodes back with it and validates as v2, for any text (non-ASCII included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), fc.constantFrom("GET", "POST", "DELETE" as const), (description, method) => {
        const required = paymentRequired(terms(description, method), "payment_required")
        const header = paymentRequiredHeader(required)
        assert.strictEqual(header, encodePaymentRequiredHeader(required))
        assert.deepStrictEqual(decodePaymentRequiredHeader(header), required)
        assert.isTrue(PaymentRequiredV2Schema.safeParse(decodePaymentRequiredHeader(header)).success)
      }),
      { seed: 402, numRuns: 200 }
    )
  })
})

describe("the MPP challenge and credentials", () => {
  it("is byte for byte what mppx's Challenge.from and Challenge.serialize make, for any terms", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE" as const),
        fc.stringMatching(/^[A-Za-z0-9._~-]{1,120}$/),
        fc.stringMatching(/^\/[A-Za-z0-9\-._~/]{0,60}$/),
        fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }),
        fc.constantFrom("gateway.example", "127.0.0.1:8787", "[::1]:4100"),
        fc.integer({ min: 1_700_000_000_000, max: 4_000_000_000_000 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (method, nonce, path, price, realm, expiresAtMs, key) => {
          const base = terms("d", method)
          const t: ChallengeTerms = {
            ...base,
            nonce,
            expiresAt: new Date(expiresAtMs),
            entry: Schema.decodeUnknownSync(CatalogEntry)({ ...base.entry, path, price: price.toString() })
          }
          const secretKey = mppSecretOf(key)
          const expected = Challenge.serialize(Challenge.from({
            secretKey,
            realm,
            method: "sui",
            intent: "charge",
            request: suiChargeRequest(suiDelegateOffer(t)),
            expires: t.expiresAt.toISOString()
          }))
          assert.strictEqual(mppChallenge(t, realm, secretKey), expected)
        }
      ),
      { seed: 1402, numRuns: 300 }
    )
  })

  const headers = challengeHeaders(terms("d"), "gateway.example", "payment_required", secret)
  const challenge = Challenge.deserialize(headers["www-authenticate"])

  it("mppx parses the challenge and verifies its id under the gateway's secret, and only under it", () => {
    assert.isTrue(Challenge.verify(challenge, { secretKey: secret }))
    assert.isFalse(Challenge.verify(challenge, { secretKey: mppSecretOf(new Uint8Array(32)) }))
    assert.strictEqual(headers["cache-control"], "no-store")
  })

  it("reads an mppx credential echoing the challenge, and none whose echoed challenge was altered", () => {
    const credential = (c: typeof challenge) => Credential.serialize({ challenge: c, payload: { digest: DIGEST, proof: "c2ln" } })
    assert.deepStrictEqual(readCredential({ authorization: credential(challenge) }, secret), {
      nonce: terms("d").nonce,
      digest: DIGEST,
      proof: "c2ln",
      binding: "request"
    })
    assert.isUndefined(readCredential({ authorization: credential({ ...challenge, request: { ...challenge.request, recipient: `0x${"e".repeat(64)}` } }) }, secret))
    assert.isUndefined(readCredential({ authorization: credential({ ...challenge, expires: "2099-01-01T00:00:00.000Z" }) }, secret))
    assert.isUndefined(readCredential({ authorization: credential({ ...challenge, id: "forged" }) }, secret))
    assert.isUndefined(readCredential({ authorization: "Payment !!!" }, secret))
  })

  it("reads an x402 credential by its schema, and nothing that is not a sui-delegate payment", () => {
    const [, offer] = bothOffers(terms("d"))
    const header = (accepted: object, payload: Record<string, unknown>) =>
      encodePaymentSignatureHeader({ x402Version: 2, accepted: accepted as typeof offer, payload })
    assert.deepStrictEqual(readCredential({ "payment-signature": header(offer, { digest: DIGEST, proof: "c2ln", binding: "challenge" }) }, secret), {
      nonce: offer.extra.nonce,
      digest: DIGEST,
      proof: "c2ln",
      binding: "challenge"
    })
    assert.strictEqual(readCredential({ "payment-signature": header(offer, { digest: DIGEST }) }, secret)?.proof, undefined)
    assert.isUndefined(readCredential({ "payment-signature": header({ ...offer, scheme: "exact" }, { digest: DIGEST }) }, secret))
    assert.isUndefined(readCredential({ "payment-signature": header(offer, { digest: "not base58 0OIl" }) }, secret))
    assert.isUndefined(readCredential({ "payment-signature": header(offer, { digest: DIGEST, binding: "other" }) }, secret))
    assert.isUndefined(readCredential({ "payment-signature": "%%%" }, secret))
  })

  it("reads a sign-first credential: x402 exact with its echoed terms, or MPP's signed transaction for a challenge it issued", () => {
    const [exact, upfront] = bothOffers(terms("d"))
    const signed = { signature: "c2lnbmF0dXJl", transaction: "dHJhbnNhY3Rpb24=" }
    const x402 = (accepted: object, payload: Record<string, unknown>) =>
      encodePaymentSignatureHeader({ x402Version: 2, accepted: accepted as typeof exact, payload })
    assert.deepStrictEqual(readSignedCredential({ "payment-signature": x402(exact, signed) }, secret), {
      nonce: exact.extra.nonce,
      ...signed,
      echoed: { network: exact.network, amount: exact.amount, asset: exact.asset, payTo: exact.payTo }
    })
    // A sui-delegate offer echoed, or a digest payload, is not a sign-first credential: each dialect reads its own.
    assert.isUndefined(readSignedCredential({ "payment-signature": x402(upfront, signed) }, secret))
    assert.isUndefined(readSignedCredential({ "payment-signature": x402(exact, { digest: DIGEST }) }, secret))
    assert.isUndefined(readCredential({ "payment-signature": x402(exact, signed) }, secret))
    assert.isUndefined(readSignedCredential({ "payment-signature": x402(exact, { ...signed, transaction: "not base64!" }) }, secret))
    const mpp = (c: typeof challenge) => Credential.serialize({ challenge: c, payload: signed })
    assert.deepStrictEqual(readSignedCredential({ authorization: mpp(challenge) }, secret), { nonce: terms("d").nonce, ...signed, echoed: undefined })
    assert.isUndefined(readSignedCredential({ authorization: mpp({ ...challenge, id: "forged" }) }, secret))
    assert.isUndefined(readCredential({ authorization: mpp(challenge) }, secret))
  })
})
