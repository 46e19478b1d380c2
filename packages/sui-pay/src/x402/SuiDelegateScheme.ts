import type { PaymentPayloadContext, PaymentPayloadResult, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types"
import { Option, Schema } from "effect"
import { SUI_DELEGATE_SCHEME, SuiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { makeSuiPayer, type SuiPayer, type SuiPayerOptions } from "../SuiPayer.ts"

const decodeOffer = Schema.decodeUnknownOption(SuiDelegateOffer)

/**
 * The x402 client side of scheme `sui-delegate`: register it with
 * `x402Client.register("sui:<network>", suiDelegateScheme(…))` and call
 * through `paidFetch(wrapFetchWithPayment(fetch, client))`. `createPaymentPayload`
 * checks the offer against the manifest and the request `paidFetch` is making,
 * pays on chain through the grant, waits for the checkpoint and answers
 * `{ digest, proof, binding: "challenge" }`. x402 hands a scheme only the
 * offer, never the request: outside `paidFetch` (or `payingFor`) it cannot tell
 * a foreign website's copy of a gateway 402 from the gateway's, so it pays
 * nothing. The proof binds the request the challenge describes (its method and
 * resource URL), not a body. A challenge is paid at most once, even when asked
 * for again.
 */
export const suiDelegateScheme = (options: SuiPayerOptions | { readonly payer: SuiPayer }): SchemeNetworkClient => {
  const payer = "payer" in options ? options.payer : makeSuiPayer(options)
  return {
    scheme: SUI_DELEGATE_SCHEME,
    createPaymentPayload: async (x402Version: number, requirements: PaymentRequirements, context?: PaymentPayloadContext): Promise<PaymentPayloadResult> => {
      if (x402Version !== 2) throw new Error(`sui-delegate: x402 version ${x402Version} is not supported`)
      const offer = decodeOffer(requirements)
      if (Option.isNone(offer)) throw new Error("sui-delegate: the requirements are not a sui-delegate offer")
      const cap = context?.maxAmountPerPayment
      if (cap !== undefined && BigInt(offer.value.amount) > BigInt(cap)) {
        throw new Error(`sui-delegate: ${offer.value.amount} exceeds the client's spend cap ${cap}`)
      }
      return { x402Version: 2, payload: { ...(await payer.pay(offer.value)) } }
    }
  }
}
