import { Conflict, TxFailed, Unavailable } from "@gateway/domain/Errors"

/** What a sign-first presentation is refused with, each naming what happened to the money and what to do next. */

export const inFlight = () => new Conflict({ message: "This signed payment is being used by another request", reason: "payment_in_flight" })

export const sellerFailed = (detail: string) =>
  new Unavailable({
    message: "The seller failed to answer; nothing was charged. Present the same signed payment again to retry",
    reason: `upstream_${detail}_nothing_charged_retry_with_the_same_payment`
  })

export const settlementFailed = (reason: string) =>
  new TxFailed({
    message: "The seller answered, but the chain would not execute your payment, so its answer is withheld; nothing was charged",
    reason: `settlement_failed: ${reason}`
  })

/** The network, not the payer, kept the payment from settling: a payment signed again for the same challenge gets the kept answer. */
export const signAgain = (reason: string) =>
  new Conflict({
    message:
      "The seller answered, but your signed payment could not be executed for a reason not yours (its epoch ended, the gas price moved, congestion). Sign a new payment for the same challenge and present it: it gets the kept answer, and the seller is not asked again",
    reason: `payment_must_be_signed_again: ${reason}`
  })

/** A settlement still pending, as the payer hears of it: its answer is kept and comes with the same payment. */
export const settlementPending = (reason: string) =>
  new Unavailable({
    message: "The seller answered; settling your payment is delayed. Present the same signed payment again shortly to get the answer",
    reason: `settlement_pending: ${reason}`
  })
