import type { PaymentPayloadContext, PaymentPayloadResult, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types"
import { Option, Schema } from "effect"
import { EXACT_SCHEME, ExactOffer } from "@gateway/domain/payment/ExactOffer"
import type { SuiPayerOptions } from "../SuiPayer.ts"
import { makeSignFirstPayer, type SignFirstPayer } from "../SignFirstPayer.ts"

const decodeOffer = Schema.decodeUnknownOption(ExactOffer)

/**
 * The x402 client side of scheme `exact` on Sui (sign-first), paying through
 * the agent's grant: register it with `x402Client.register("sui:*",
 * exactSuiScheme(…))` and call through `paidFetch(wrapFetchWithPayment(fetch,
 * client))`. `createPaymentPayload` checks the offer against the manifest and
 * the request `paidFetch` is making, signs one `spend_account::pay` (gas from
 * the offer's gas station, so the agent needs no SUI) without executing it,
 * and answers the scheme document's `{ signature, transaction }`. The gateway
 * executes it only after the seller answered.
 *
 * Its `onPaymentResponse` hook asks `@x402/fetch` to retry, once, a paid
 * request that came back neither settled (`PAYMENT-RESPONSE`) nor challenged
 * again (402): for a sign-first payment that means nothing was charged (the
 * seller failed, or the payment was in flight), and the retry presents the
 * SAME signed bytes, so it can be charged at most once.
 */
export const exactSuiScheme = (options: SuiPayerOptions | { readonly payer: SignFirstPayer }): SchemeNetworkClient => {
  const payer = "payer" in options ? options.payer : makeSignFirstPayer(options)
  return {
    scheme: EXACT_SCHEME,
    createPaymentPayload: async (x402Version: number, requirements: PaymentRequirements, context?: PaymentPayloadContext): Promise<PaymentPayloadResult> => {
      if (x402Version !== 2) throw new Error(`exact: x402 version ${x402Version} is not supported`)
      const offer = decodeOffer(requirements)
      if (Option.isNone(offer)) throw new Error("exact: the requirements are not a Sui exact offer of this gateway")
      const cap = context?.maxAmountPerPayment
      if (cap !== undefined && BigInt(offer.value.amount) > BigInt(cap)) {
        throw new Error(`exact: ${offer.value.amount} exceeds the client's spend cap ${cap}`)
      }
      return { x402Version: 2, payload: { ...(await payer.sign(offer.value)) } }
    },
    schemeHooks: {
      onPaymentResponse: async ({ paymentPayload, requirements, settleResponse, paymentRequired }) => {
        if (settleResponse?.success === true || paymentRequired !== undefined) return
        const offer = decodeOffer(requirements)
        if (Option.isNone(offer)) return
        // Only the payment still held for this challenge is presented again: one that expired is not retried.
        const signed = await payer.signed(offer.value.extra.nonce)
        if (signed === undefined || paymentPayload.payload["transaction"] !== signed.transaction) return
        return { recovered: true }
      }
    }
  }
}
