import { BAZAAR, bazaarExtension } from "./BazaarExtension.ts"
import { type ChallengeTerms, type SuiDelegateOffer, suiDelegateOffer } from "./SuiDelegateOffer.ts"

/**
 * The x402 (version 2) `PaymentRequired` of one challenge: the resource, our
 * one `sui-delegate` offer, and the service's bazaar description. It is both
 * the `PAYMENT-REQUIRED` header (base64 of this JSON) and, beside the error
 * fields, the 402's body.
 */
export interface SuiDelegatePaymentRequired {
  readonly x402Version: 2
  readonly error: string
  readonly resource: { readonly url: string; readonly description: string; readonly mimeType: string }
  readonly accepts: [SuiDelegateOffer]
  readonly extensions: { readonly [BAZAAR]: ReturnType<typeof bazaarExtension> }
}

export const paymentRequired = (t: ChallengeTerms, error: string): SuiDelegatePaymentRequired => ({
  x402Version: 2,
  error,
  resource: { url: t.entry.resourceUrl, description: t.entry.description, mimeType: t.entry.mimeType },
  accepts: [suiDelegateOffer(t)],
  extensions: { [BAZAAR]: bazaarExtension(t.entry) }
})
