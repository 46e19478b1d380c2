import { SESSION_MIN_REMAINING_MS } from "./SessionOffer.ts"
import type { PaymentSession, SessionGrantView } from "./PaymentSession.ts"

/** What a voucher pays for: the service's terms at this call. */
export interface VoucherTerms {
  readonly payTo: string
  readonly asset: string
  readonly price: bigint
}

/** Why a voucher is refused: the error's kind (its HTTP status), reason and a message that says what to do. */
export interface VoucherRefusal {
  readonly kind: "invalid" | "conflict"
  readonly reason: string
  readonly message: string
}

export type VoucherCheck = { readonly ok: true } | { readonly ok: false; readonly refusal: VoucherRefusal }

const refuse = (kind: VoucherRefusal["kind"], reason: string, message: string): VoucherCheck => ({ ok: false, refusal: { kind, reason, message } })

/** Which of the session's terms the voucher's call does not meet; the signature is checked apart (it costs more). */
const termsRefusal = (session: PaymentSession, grant: SessionGrantView, terms: VoucherTerms, nowMs: bigint): VoucherCheck | undefined => {
  if (session.payee !== terms.payTo) {
    return refuse("invalid", "session_for_another_payee", "This session pays another seller: open a session for this service's payTo")
  }
  if (session.coinType !== terms.asset) {
    return refuse("invalid", "session_in_another_asset", "This session holds another coin than this service's price: open one in its asset")
  }
  if (session.state !== "open") return refuse("conflict", "session_closed", "This session is closed: open a new one")
  if (grant.revoked) return refuse("conflict", "grant_revoked", "The grant this session draws on was revoked by its owner: no more calls are paid from it")
  if (grant.paused) return refuse("conflict", "grant_paused", "The grant this session draws on is paused by its owner: calls resume when the owner resumes it")
  if (session.closeAtMs !== 0n) return refuse("conflict", "session_closing", "The grant's owner asked to close this session: open a new one once the grant is resumed")
  if (session.expiryMs - nowMs < SESSION_MIN_REMAINING_MS) {
    return refuse("conflict", "session_near_expiry", "This session expires too soon for its vouchers to be claimed: open a new one")
  }
  if (terms.price > grant.maxPerPayment) {
    return refuse("invalid", "price_above_max_per_payment", "This call costs more than the grant's per-payment cap: the owner must raise it")
  }
  return undefined
}

/**
 * Whether a voucher of `cumulative` may pay for one call now: the session is this service's (payee and asset),
 * open, far enough from its expiry, its grant neither paused nor revoked in the gateway's view, and the amount
 * grew by at least the price over what was charged, within the deposit. A voucher at or below what was charged
 * was used already; one above the deposit needs a top-up first.
 */
export const checkVoucher = (
  session: PaymentSession,
  grant: SessionGrantView,
  terms: VoucherTerms,
  cumulative: bigint,
  nowMs: bigint
): VoucherCheck => {
  const refused = termsRefusal(session, grant, terms, nowMs)
  if (refused !== undefined) return refused
  if (cumulative <= session.charged) {
    return refuse("conflict", "voucher_already_used", `This voucher was used already: sign one for at least ${session.charged + terms.price}`)
  }
  if (cumulative - session.charged < terms.price) {
    return refuse("invalid", "voucher_below_price", `The voucher must grow by the price (${terms.price}): sign one for at least ${session.charged + terms.price}`)
  }
  if (cumulative > session.deposit) {
    return refuse("conflict", "voucher_above_deposit", `The voucher is above the session's deposit (${session.deposit}): top the session up, or open a new one`)
  }
  return { ok: true }
}
