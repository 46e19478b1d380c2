import { encodePaymentResponseHeader } from "@x402/core/http"
import { Receipt } from "mppx"
import type { UpstreamAnswer } from "../../upstream/UpstreamForwarder.ts"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import type { Forwardable } from "../../catalog/Catalog.ts"
import type { PaidCallResult } from "../PaidCallRequest.ts"

/**
 * A voucher's reference in receipts: nothing went on chain for this call, so the receipt names the session and
 * the cumulative amount the seller may claim with it.
 */
export const voucherReference = (sessionId: string, cumulative: bigint) => `${sessionId}:${cumulative}`

/** The seller's answer to a call paid by a voucher, with both dialects' receipts. */
export const sessionAnswer = (
  target: Forwardable,
  voucher: { readonly sessionId: string; readonly cumulative: bigint; readonly payer: string },
  answer: Extract<UpstreamAnswer, { readonly _tag: "Answered" }>,
  answeredAt: Date
): PaidCallResult => {
  const reference = voucherReference(voucher.sessionId, voucher.cumulative)
  return {
    _tag: "Forwarded",
    status: answer.status,
    body: answer.body,
    headers: {
      ...(answer.contentType === null ? {} : { "content-type": answer.contentType }),
      "payment-response": encodePaymentResponseHeader({
        success: true,
        transaction: reference,
        network: suiNetwork(target.entry.network),
        payer: voucher.payer,
        amount: target.entry.price,
        extra: { session: voucher.sessionId, cumulativeAmount: voucher.cumulative.toString() }
      }),
      "payment-receipt": Receipt.serialize(Receipt.from({
        method: "sui",
        reference,
        status: "success",
        timestamp: answeredAt.toISOString()
      }))
    }
  }
}
