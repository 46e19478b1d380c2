import type { RechallengeRefusal } from "./PaidCallDecision.ts"
import type { PaymentClaim } from "./RecordedPayment.ts"

/** The message of a plain 402, to a call that presented nothing. */
export const PAY_THIS_CALL = "This call must be paid"

const WHAT_NEXT = "Pay the fresh challenge in this response"

/**
 * What a refusal whose money moved tells the payer: how much went where, that it is recorded, and that it pays
 * nothing. The chain's payment event names no coin: the asset is said only when the grant is one this gateway
 * provisioned (its coin type is known), and only then is there an owner whose payments list it.
 */
const moved = (why: string, record: PaymentClaim) => {
  const known = record.grantId !== null
  const units = known ? `atomic units of ${record.asset}` : "atomic units of the grant's coin"
  const where = known ? "in the owner's payments" : "by this gateway"
  return `Payment ${record.digest} ${why}: ${record.amount} ${units} moved from grant ${record.grantObjectId} to ${record.recipient}, and they are recorded as refused ${where} (reason ${record.refusal ?? "refused"}). They do not pay this call and this gateway cannot return them; only the recipient can. ${WHAT_NEXT}`
}

/** A sign-first payment presented late: the gateway never submitted it. */
export const SIGNED_PAYMENT_LATE = `This signed payment was presented after its challenge expired: it was not submitted and no money moved. ${WHAT_NEXT}`

/**
 * The message of a 402 that refuses a presented payment. A payer must learn whether money moved and where, not just
 * that a new challenge follows: a late upfront payment has moved money nobody will return on their own, while a
 * signed payment refused before it was submitted moved none.
 */
export const rechallengeMessage = (refusal: RechallengeRefusal, record?: PaymentClaim): string => {
  switch (refusal) {
    case "challenge_expired":
      return record === undefined
        ? `The payment reached the chain after its challenge expired, so it does not pay this call. ${WHAT_NEXT}`
        : moved("reached the chain after its challenge expired", record)
    case "payment_refused_challenge_expired":
    case "payment_refused_unknown_grant":
    case "payment_refused_wrong_asset":
    case "payment_refused_policy":
    case "payment_refused_earlier":
      return `This payment was refused when first presented (${refusal.slice("payment_refused_".length)}): its money moved to the recipient, it is in the owner's payments as refused, and it cannot pay any call. ${WHAT_NEXT}`
    case "payment_for_another_challenge":
      return `This payment paid another challenge than the one presented, so it cannot pay this call; nothing new was charged. ${WHAT_NEXT}`
    case "payment_proof_invalid":
      return `The credential does not prove it comes from the payment's own delegate, so the payment cannot be used here; nothing was charged. ${WHAT_NEXT}`
    case "unknown_challenge":
      return `The challenge presented is not one this gateway issued for this service; nothing was charged. ${WHAT_NEXT}`
  }
}
