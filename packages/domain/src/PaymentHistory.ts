import { Schema } from "effect"
import { described, documented, documentedNumberFromString, Example } from "./Doc.ts"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { GrantId, ServiceId } from "./Ids.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/**
 * What became of a paid call. Upfront payments (paid before the call): forwarded to the seller, refused by the
 * gateway after the chain moved the money (`reason` says why), still being forwarded, or the seller failed
 * (`upstreamStatus` when it answered). Sign-first payments (settled only after the seller answered): `settled`
 * (charged), `not_charged` (the seller failed; nothing moved), `settlement_failed` (the seller answered but the
 * chain would not execute the payment: `reason` says why; the answer was withheld), `settling` meanwhile.
 */
export const PaymentOutcome = Schema.Struct({
  state: documented(
    Schema.Literals(["forwarded", "refused", "in_flight", "upstream_failed", "settling", "settled", "not_charged", "settlement_failed"]),
    "What became of the call: forwarded, refused (money moved, call not forwarded: see reason), in_flight, upstream_failed (payment kept, retry with the same credential), settling, settled (charged), not_charged (nothing moved), settlement_failed (nothing moved, answer withheld).",
    "forwarded"
  ),
  reason: documented(Schema.NullOr(Schema.String), "Why it was refused or failed to settle, a snake_case reason; null otherwise.", null),
  upstreamStatus: documented(Schema.NullOr(Schema.Int), "The seller's HTTP status when it answered with a failure; null otherwise.", null)
})
export type PaymentOutcome = typeof PaymentOutcome.Type

/** One payment an agent made through the gateway, as its owner and the service's seller see it. */
export const PaymentItem = Schema.Struct({
  digest: documented(Schema.String, "The payment transaction's digest (base58): look it up on any Sui explorer.", Example.digest),
  serviceId: described(ServiceId, "The service paid for."),
  /** The service's name in the revision that was paid. */
  serviceName: documented(Schema.String, "The service's name in the revision that was paid.", "Weather Oracle"),
  amount: described(AtomicAmount, "What was paid, in atomic units of asset."),
  asset: described(CoinType, "The coin type paid in."),
  recipient: described(SuiAddress, "Who was paid: the service's payTo."),
  /** The agent (delegate) that paid. */
  payer: described(SuiAddress, "The agent (delegate) that paid."),
  /** The gateway's id of the paying grant; null when it is a grant this gateway did not provision. */
  grantId: described(Schema.NullOr(GrantId), "The gateway's id of the paying grant; null when this gateway did not provision it."),
  grantObjectId: described(ObjectId, "The Grant object on chain that paid."),
  createdAt: documented(Schema.String, "When the gateway recorded the payment (ISO 8601).", Example.isoTime),
  outcome: described(PaymentOutcome, "What became of the paid call.")
})
export type PaymentItem = typeof PaymentItem.Type

export const PaymentList = Schema.Struct({
  payments: described(Schema.Array(PaymentItem), "The payments on this page, newest first."),
  nextCursor: documented(Schema.NullOr(Schema.String), "Pass as cursor for the next page; null on the last page.", null)
})
export type PaymentList = typeof PaymentList.Type

export const PaymentListQuery = Schema.Struct({
  limit: Schema.optionalKey(
    documentedNumberFromString(
      Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))),
      "At most this many payments (1 to 100); absent: 50.",
      20
    )
  ),
  cursor: Schema.optionalKey(
    documented(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))), "A previous page's nextCursor.", "MTc2ODQ2OTQwMDAwMC44WjRWc1M3SEhUNUp2U1pmMW9OOGtYaFZEZldnZmpHelRqbXdqM0dRdlJ6Qg")
  )
})
