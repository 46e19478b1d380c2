import { Schema } from "effect"
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
  state: Schema.Literals(["forwarded", "refused", "in_flight", "upstream_failed", "settling", "settled", "not_charged", "settlement_failed"]),
  reason: Schema.NullOr(Schema.String),
  upstreamStatus: Schema.NullOr(Schema.Number)
})
export type PaymentOutcome = typeof PaymentOutcome.Type

/** One payment an agent made through the gateway, as its owner and the service's seller see it. */
export const PaymentItem = Schema.Struct({
  digest: Schema.String,
  serviceId: ServiceId,
  /** The service's name in the revision that was paid. */
  serviceName: Schema.String,
  amount: AtomicAmount,
  asset: CoinType,
  recipient: SuiAddress,
  /** The agent (delegate) that paid. */
  payer: SuiAddress,
  /** The gateway's id of the paying grant; null when it is a grant this gateway did not provision. */
  grantId: Schema.NullOr(GrantId),
  grantObjectId: ObjectId,
  createdAt: Schema.String,
  outcome: PaymentOutcome
})
export type PaymentItem = typeof PaymentItem.Type

export const PaymentList = Schema.Struct({
  payments: Schema.Array(PaymentItem),
  nextCursor: Schema.NullOr(Schema.String)
})
export type PaymentList = typeof PaymentList.Type

export const PaymentListQuery = Schema.Struct({
  limit: Schema.optionalKey(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
  ),
  cursor: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))))
})
