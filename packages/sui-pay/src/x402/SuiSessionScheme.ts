import type { PaymentRequiredHook } from "@x402/core/client"
import type { PaymentPayloadContext, PaymentPayloadResult, PaymentRequirements, SchemeNetworkClient } from "@x402/core/types"
import { Option, Schema } from "effect"
import { sessionOfferIn } from "@gateway/client/SessionPayments"
import { x402VoucherHeader, x402VoucherPayload } from "@gateway/client/SessionVouchers"
import { SESSION_SCHEME, SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { makeSessionPayer, type SessionPayer, type SessionPayerOptions } from "../SessionPayer.ts"

const decodeOffer = Schema.decodeUnknownOption(SessionOffer)

const payerOf = (options: SessionPayerOptions | { readonly payer: SessionPayer }) => "payer" in options ? options.payer : makeSessionPayer(options)

/**
 * The x402 client side of scheme `sui-session`: a voucher of the payee's session (opened on chain when none can
 * pay the call), `{ session, cumulativeAmount, signature }`. Register it with `x402Client.register("sui:*", …)`
 * and call through `paidFetch(wrapFetchWithPayment(fetch, …))`: outside `paidFetch` it pays nothing, and only
 * `paidFetch` tells it how the voucher was answered (see `SessionPayer`). `@x402/core` 2.27 selects an offer only
 * if its `extra.paymentFlow` is `authorization`, `upfront` or `escrow`, and the gateway's session offer says
 * `session`: `sessionPaymentRequiredHook` (which `suiX402HttpClient` registers) reaches it meanwhile.
 */
export const suiSessionScheme = (options: SessionPayerOptions | { readonly payer: SessionPayer }): SchemeNetworkClient => {
  const payer = payerOf(options)
  return {
    scheme: SESSION_SCHEME,
    createPaymentPayload: async (x402Version: number, requirements: PaymentRequirements, context?: PaymentPayloadContext): Promise<PaymentPayloadResult> => {
      if (x402Version !== 2) throw new Error(`${SESSION_SCHEME}: x402 version ${x402Version} is not supported`)
      const offer = decodeOffer(requirements)
      if (Option.isNone(offer)) throw new Error(`${SESSION_SCHEME}: the requirements are not a sui-session offer of this gateway`)
      const cap = context?.maxAmountPerPayment
      if (cap !== undefined && BigInt(offer.value.amount) > BigInt(cap)) {
        throw new Error(`${SESSION_SCHEME}: ${offer.value.amount} exceeds the client's spend cap ${cap}`)
      }
      return { x402Version: 2, payload: x402VoucherPayload(await payer.voucherFor(offer.value, SESSION_SCHEME)) }
    }
  }
}

/**
 * An `x402HTTPClient.onPaymentRequired` hook that pays a 402 offering `sui-session` with a voucher before
 * `@x402/core`'s selection runs (which would drop the offer, see `suiSessionScheme`): its headers are the
 * `PAYMENT-SIGNATURE` of the voucher, echoing the offer as the 402 carried it. A 402 without a session offer is
 * left to the registered schemes. Call through `paidFetch`, as for every scheme here.
 */
export const sessionPaymentRequiredHook = (options: SessionPayerOptions | { readonly payer: SessionPayer }): PaymentRequiredHook => {
  const payer = payerOf(options)
  return async ({ paymentRequired }) => {
    const found = sessionOfferIn(paymentRequired.accepts)
    if (found === undefined) return
    const voucher = await payer.voucherFor(found.offer, SESSION_SCHEME)
    return { headers: { "PAYMENT-SIGNATURE": x402VoucherHeader(found.accepted, voucher) } }
  }
}
