import { encodePaymentResponseHeader } from "@x402/core/http"
import { Receipt } from "mppx"
import type { PaidBy } from "@gateway/domain/payment/PaidCallDecision"
import type { PaidAnswer } from "@gateway/domain/payment/RecordedPayment"
import { mppReceipt, settleResponse } from "@gateway/domain/payment/Settlement"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import type { Forwardable } from "../catalog/Catalog.ts"
import type { PaymentCredential } from "./PaymentChallenge.ts"
import type { PaidCallResult } from "./PaidCallRequest.ts"

/** The seller's answer as the payer receives it, with the receipt of what paid for it. */
export const settledAnswer = (
  target: Forwardable,
  credential: Pick<PaymentCredential, "digest" | "nonce">,
  paid: PaidBy,
  answer: PaidAnswer
): PaidCallResult => {
  const settled = {
    network: suiNetwork(target.entry.network),
    digest: credential.digest,
    nonce: credential.nonce,
    payer: paid.payer,
    amount: paid.amount,
    answeredAt: answer.answeredAt
  }
  return {
    _tag: "Forwarded",
    status: answer.status,
    body: answer.body,
    headers: {
      ...(answer.contentType === null ? {} : { "content-type": answer.contentType }),
      "payment-response": encodePaymentResponseHeader(settleResponse(settled)),
      "payment-receipt": Receipt.serialize(Receipt.from(mppReceipt(settled)))
    }
  }
}
