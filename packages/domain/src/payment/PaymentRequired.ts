import { BAZAAR, bazaarExtension } from "./BazaarExtension.ts"
import { type ExactOffer, exactOffer } from "./ExactOffer.ts"
import { type SessionOffer, sessionOffer } from "./SessionOffer.ts"
import { type ChallengeTerms, type SuiDelegateOffer, suiDelegateOffer } from "./SuiDelegateOffer.ts"

/**
 * The x402 (version 2) `PaymentRequired` of one challenge: the resource, two
 * offers of the same terms and nonce — first `exact` (sign-first: settled only
 * after the seller answered), then `sui-delegate` (upfront, for existing
 * clients) — then `sui-session` (vouchers against a session's deposit, for many
 * calls), and the service's bazaar description. It is both the
 * `PAYMENT-REQUIRED` header (base64 of this JSON) and, beside the error
 * fields, the 402's body.
 */
export interface SuiDelegatePaymentRequired {
  readonly x402Version: 2
  readonly error: string
  readonly resource: { readonly url: string; readonly description: string; readonly mimeType: string }
  /** `exact` first, unless the epoch ends before the challenge would be paid (`ExactOfferWindow.ts`). */
  readonly accepts: [ExactOffer, SuiDelegateOffer, SessionOffer] | [SuiDelegateOffer, SessionOffer]
  readonly extensions: { readonly [BAZAAR]: ReturnType<typeof bazaarExtension> }
}

/**
 * `gasStation`: where a payer gets its `exact` transaction's gas paid; undefined when this gateway sponsors none.
 * `offerExact`: false near the epoch's end, when a sign-first payment would expire before it settles.
 * `sessionOperator`: who may end a session early with a final voucher (the gateway's sponsor); the payee when undefined.
 */
export const paymentRequired = (
  t: ChallengeTerms,
  error: string,
  gasStation?: string,
  offerExact = true,
  sessionOperator?: string
): SuiDelegatePaymentRequired => ({
  x402Version: 2,
  error,
  resource: { url: t.entry.resourceUrl, description: t.entry.description, mimeType: t.entry.mimeType },
  accepts: offerExact ? [exactOffer(t, gasStation), suiDelegateOffer(t), sessionOffer(t, sessionOperator)]
    : [suiDelegateOffer(t), sessionOffer(t, sessionOperator)],
  extensions: { [BAZAAR]: bazaarExtension(t.entry) }
})
