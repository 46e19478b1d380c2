import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import { PAY_THIS_CALL } from "@gateway/domain/payment/RechallengeMessage"
import type { ChallengeTerms } from "@gateway/domain/payment/SuiDelegateOffer"
import { mintNonce } from "./ChallengeNonce.ts"
import { type ChallengeHeaders, challengeHeadersOf, mppRequest } from "./PaymentChallenge.ts"

/** What every challenge this gateway mints shares: its keys, its host (the MPP realm), how long a challenge lasts, the package. */
export interface ChallengeSettings {
  readonly key: Uint8Array
  readonly mppSecret: string
  readonly realm: string
  readonly seconds: number
  readonly pkg: SpendAccountPackage
  /** The `exact` offer's gas station URL; undefined when this gateway sponsors no gas. */
  readonly gasStation: string | undefined
  /** Who may end a session early with its final voucher: the sponsor; undefined (the payee) when this gateway sponsors no gas. */
  readonly sessionOperator: string | undefined
  /** False near the epoch's end: only the upfront offer is made. Templates always offer both. */
  readonly offerExact?: boolean
}

/** A 402 as it is answered: its JSON body and its headers. */
export interface MintedChallenge {
  readonly body: string
  readonly headers: ChallengeHeaders
}

/** The service's terms at `nowMs`, with a fresh nonce sealing them (see ChallengeNonce). */
export const termsAt = (s: ChallengeSettings, entry: CatalogEntry, nowMs: number): ChallengeTerms => {
  const expiresAt = new Date(nowMs + s.seconds * 1000)
  return {
    nonce: mintNonce(s.key, { serviceId: entry.id, revision: entry.activeRevision, expiresAtMs: expiresAt.getTime() }),
    seconds: s.seconds,
    expiresAt,
    entry,
    pkg: s.pkg
  }
}

/** The three texts of a challenge: the body, the `PaymentRequired` JSON (x402's header) and the MPP request's canonical JSON. */
interface ChallengeTexts {
  readonly body: string
  readonly required: string
  readonly request: string
}

const textsOf = (t: ChallengeTerms, reason: string, s: ChallengeSettings, message = PAY_THIS_CALL): ChallengeTexts => {
  const required = paymentRequired(t, reason, s.gasStation, s.offerExact ?? true, s.sessionOperator)
  return {
    body: JSON.stringify({ ok: false, code: "PAYMENT_REQUIRED", message, reason, ...required }),
    required: JSON.stringify(required),
    request: mppRequest(t)
  }
}

const challengeOf = (texts: ChallengeTexts, t: ChallengeTerms, s: ChallengeSettings): MintedChallenge => ({
  body: texts.body,
  headers: challengeHeadersOf(texts, t.expiresAt.toISOString(), s.realm, s.mppSecret)
})

/** A 402 for these terms, rendered whole: what a template must equal. A refusal's `message` says what happened to the payment. */
export const renderChallenge = (t: ChallengeTerms, reason: string, s: ChallengeSettings, message?: string): MintedChallenge =>
  challengeOf(textsOf(t, reason, s, message), t, s)

/** The two values that differ between challenges for the same terms, as the JSON strings they are written as. */
type Slot = "nonce" | "expiresAt"
const SLOTS: ReadonlyArray<Slot> = ["nonce", "expiresAt"]
const valuesOf = (t: ChallengeTerms): Readonly<Record<Slot, string>> => ({
  nonce: JSON.stringify(t.nonce),
  expiresAt: JSON.stringify(t.expiresAt.toISOString())
})

/** A text cut where the slot values stood: each piece's text, then its slot's value; then the tail. */
interface Cut {
  readonly pieces: ReadonlyArray<{ readonly text: string; readonly slot: Slot }>
  readonly tail: string
}

const positions = (text: string, token: string) => {
  const found: Array<number> = []
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) found.push(at)
  return found
}

/**
 * `text` cut around its slot values, or undefined unless each value stands there exactly as often as the terms
 * put it (`expected`). The nonce holds random bits and the expiry is to the millisecond, but a seller's text is
 * theirs to choose: a value found anywhere else too means the text is rendered whole every time.
 */
const cut = (text: string, values: Readonly<Record<Slot, string>>, expected: Readonly<Record<Slot, number>>): Cut | undefined => {
  const found = SLOTS.flatMap((slot) => positions(text, values[slot]).map((at) => ({ slot, at, end: at + values[slot].length })))
  if (SLOTS.some((slot) => found.filter((f) => f.slot === slot).length !== expected[slot])) return undefined
  found.sort((a, b) => a.at - b.at)
  const pieces: Array<Cut["pieces"][number]> = []
  let from = 0
  for (const f of found) {
    if (f.at < from) return undefined
    pieces.push({ text: text.slice(from, f.at), slot: f.slot })
    from = f.end
  }
  return { pieces, tail: text.slice(from) }
}

const fill = (c: Cut, values: Readonly<Record<Slot, string>>) => {
  let text = ""
  for (const piece of c.pieces) text += piece.text + values[piece.slot]
  return text + c.tail
}

/** A 402 for one service's terms and reason, rendered once: each challenge only puts its own nonce and expiry in. */
export interface ChallengeTemplate {
  readonly entry: CatalogEntry
  /** The 402 for these terms (which must be for the template's entry), the same bytes `renderChallenge` makes. */
  render(t: ChallengeTerms): MintedChallenge
  /** A fresh challenge at `nowMs`. */
  mint(nowMs: number): MintedChallenge
}

/**
 * The template of a service's 402: its texts rendered once at `nowMs` with real values, and cut where the
 * nonce and the expiry stand. JSON writes both without escapes (the nonce's alphabet and an ISO date need
 * none), so any other nonce and expiry put in the same places make the bytes a whole rendering makes.
 */
export const challengeTemplate = (settings: ChallengeSettings, entry: CatalogEntry, reason: string, nowMs: number): ChallengeTemplate => {
  // A service whose payments settle before forwarding is paid upfront only: the agent's payment is on chain first.
  const offerExact = entry.settlement !== "before_forwarding"
  const s = { ...settings, offerExact }
  const first = termsAt(s, entry, nowMs)
  const texts = textsOf(first, reason, s)
  const values = valuesOf(first)
  // Both offers carry the nonce and the expiry; MPP's request carries the nonce alone.
  const offers = offerExact ? 2 : 1
  const body = cut(texts.body, values, { nonce: offers, expiresAt: offers })
  const required = cut(texts.required, values, { nonce: offers, expiresAt: offers })
  const request = cut(texts.request, values, { nonce: 1, expiresAt: 0 })
  const render = (t: ChallengeTerms): MintedChallenge => {
    if (body === undefined || required === undefined || request === undefined) return renderChallenge(t, reason, s)
    const v = valuesOf(t)
    return challengeOf({ body: fill(body, v), required: fill(required, v), request: fill(request, v) }, t, s)
  }
  return { entry, render, mint: (now) => render(termsAt(s, entry, now)) }
}
