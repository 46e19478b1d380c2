import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { liveEntry } from "../../test/support/CatalogEntries.ts"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import type { ChallengeTerms } from "@gateway/domain/payment/SuiDelegateOffer"
import { openNonce } from "./ChallengeNonce.ts"
import { challengeTemplate, renderChallenge, termsAt } from "./ChallengeTemplate.ts"
import { challengeHeaders, mppSecretOf } from "./PaymentChallenge.ts"

const key = new Uint8Array(32).fill(9)
const settings = {
  key,
  mppSecret: mppSecretOf(key),
  realm: "gateway.example",
  seconds: 300,
  pkg: { originalId: `0x${"b".repeat(64)}`, publishedAt: `0x${"c".repeat(64)}`, registryId: `0x${"d".repeat(64)}` },
  gasStation: "https://gateway.example/v1/gas-station",
  sessionOperator: `0x${"f".repeat(64)}`
}

const entryOf = (description: string, method: CatalogEntry["method"], price: string) => liveEntry({ description, method, price, activeRevision: 3 })

/** What the gateway answered before templates, built the way MintChallenge built it. */
const asMintedBefore = (t: ChallengeTerms, reason: string) => ({
  body: JSON.stringify({ ok: false, code: "PAYMENT_REQUIRED", message: "This call must be paid", reason, ...paymentRequired(t, reason, settings.gasStation, true, settings.sessionOperator) }),
  headers: challengeHeaders(t, settings.realm, reason, settings.mppSecret, settings.gasStation, settings.sessionOperator)
})

const NOW = 1_800_000_000_000
const isoAt = (ms: number) => new Date(ms).toISOString()

/** Seller text that imitates what the template cuts at: quotes, escapes, a nonce's shape and the template's own expiry. */
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.constantFrom(
    isoAt(NOW + 300_000),
    `"${isoAt(NOW + 300_000)}"`,
    `\\"${isoAt(NOW + 300_000)}\\"`,
    `x"expiresAt":"${isoAt(NOW + 300_000)}"`,
    "svc_0123456789abcdefghijklmnop.3.1800000300000.",
    `"nonce":"`
  )
)

describe("a 402's template", () => {
  it("renders what a whole rendering makes, which is what minting made before templates, for any terms and time", () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.constantFrom("GET", "POST", "DELETE" as const),
        fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }),
        fc.constantFrom("payment_required", "payment_proof_invalid"),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (description, method, price, reason, laterMs) => {
          const entry = entryOf(description || "d", method, price.toString())
          const template = challengeTemplate(settings, entry, reason, NOW)
          const t = termsAt(settings, entry, laterMs)
          const minted = template.render(t)
          assert.deepStrictEqual(minted, renderChallenge(t, reason, settings))
          assert.deepStrictEqual(minted, asMintedBefore(t, reason))
        }
      ),
      { seed: 24, numRuns: 300 }
    )
  })

  it("mints a fresh nonce sealing the service, its revision and the expiry it writes", () => {
    const template = challengeTemplate(settings, entryOf("d", "GET", "40"), "payment_required", NOW)
    const [a, b] = [template.mint(NOW + 1_000), template.mint(NOW + 1_000)]
    const offerOf = (body: string) => (JSON.parse(body) as { accepts: [{ extra: { nonce: string; expiresAt: string } }] }).accepts[0].extra
    assert.notStrictEqual(offerOf(a.body).nonce, offerOf(b.body).nonce)
    assert.deepStrictEqual(openNonce(key, offerOf(a.body).nonce), { serviceId: "svc_0123456789abcdefghijklmnop", revision: 3, expiresAtMs: NOW + 301_000 })
    assert.strictEqual(offerOf(a.body).expiresAt, isoAt(NOW + 301_000))
  })
})
