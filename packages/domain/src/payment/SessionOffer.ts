import { Schema } from "effect"
import { FINAL_VOUCHER_DOMAIN, SESSION_GRACE_MS, VOUCHER_DOMAIN } from "../chain/SessionVoucher.ts"
import { SuiAddress } from "../SuiAddress.ts"
import { type ChallengeTerms, challengeTermFields, SuiDelegateOffer, suiDelegateOffer } from "./SuiDelegateOffer.ts"

/**
 * Paying from a session (docs/paid-calls.md §7): the grant's delegate opens a `Session` on chain for the seller
 * (`spend_account::open_session`, a deposit from its pool), then pays each call with a voucher, the delegate's
 * session-key signature over (session id, cumulative amount). Nothing goes on chain per call; the gateway
 * claims the seller's vouchers in batches. x402's batch-settlement family is the model: one deposit, many
 * off-chain authorizations of a growing total, claims later.
 */
export const SESSION_SCHEME = "sui-session"
export const SESSION_OPEN_METHOD = "spend_account::open_session"

/**
 * The least time a session must have left when a voucher is presented: the gateway must still be able to claim
 * it on chain. Vouchers of a session closer to its expiry are refused (`session_near_expiry`).
 */
export const SESSION_MIN_REMAINING_MS = 120_000n

/** The challenge's terms but its nonce and `pay`: a voucher is bound to its session and amount, not to a challenge. */
const { assetTransferMethod: _pay, nonce: _nonce, ...serviceTermFields } = challengeTermFields

/** What a session payer needs beside the price, asset and payee every x402 offer has. */
export const SessionExtra = Schema.Struct({
  paymentFlow: Schema.Literal("session"),
  /** How a session is opened: this call of the package at `publishedAt`, through the payer's grant. */
  sessionOpen: Schema.Literal(SESSION_OPEN_METHOD),
  /**
   * The `operator` to open the session with: besides the payee, the only one who may end it early with the
   * delegate's final voucher (this gateway's sponsor, which then stops taking its vouchers at once). The payee's
   * address when this gateway sponsors no gas.
   */
  sessionOperator: SuiAddress,
  /** The tag a voucher's signed bytes start with; the final voucher (which closes the session) uses `finalVoucherDomain`. */
  voucherDomain: Schema.Literal(VOUCHER_DOMAIN),
  finalVoucherDomain: Schema.Literal(FINAL_VOUCHER_DOMAIN),
  /** A session must have at least this long left (its expiry) for a voucher to be accepted. */
  minRemainingSeconds: Schema.Number,
  /** How long after a session's expiry the seller's vouchers can still be claimed. */
  graceSeconds: Schema.Number,
  ...serviceTermFields
})
export type SessionExtra = typeof SessionExtra.Type

/** One x402 `PaymentRequirements` of scheme `sui-session`: `amount` is the price of one call. */
export const SessionOffer = Schema.Struct({ ...SuiDelegateOffer.fields, scheme: Schema.Literal(SESSION_SCHEME), extra: SessionExtra })
export type SessionOffer = typeof SessionOffer.Type

export const sessionOffer = (t: ChallengeTerms, operator: string | undefined): SessionOffer => {
  const upfront = suiDelegateOffer(t)
  return {
    ...upfront,
    scheme: SESSION_SCHEME,
    extra: {
      paymentFlow: "session",
      sessionOpen: SESSION_OPEN_METHOD,
      sessionOperator: operator === undefined ? upfront.payTo : SuiAddress.make(operator),
      voucherDomain: VOUCHER_DOMAIN,
      finalVoucherDomain: FINAL_VOUCHER_DOMAIN,
      minRemainingSeconds: Number(SESSION_MIN_REMAINING_MS / 1000n),
      graceSeconds: Number(SESSION_GRACE_MS / 1000n),
      serviceId: upfront.extra.serviceId,
      method: upfront.extra.method,
      path: upfront.extra.path,
      resourceUrl: upfront.extra.resourceUrl,
      packageId: upfront.extra.packageId,
      publishedAt: upfront.extra.publishedAt
    }
  }
}

const decodeOffer = Schema.decodeUnknownOption(SessionOffer)

/** The `sui-session` offer among a 402's `accepts`, decoded, or undefined when there is none. */
export const findSessionOffer = (accepts: ReadonlyArray<unknown>): SessionOffer | undefined => {
  for (const candidate of accepts) {
    const decoded = decodeOffer(candidate)
    if (decoded._tag === "Some") return decoded.value
  }
  return undefined
}
