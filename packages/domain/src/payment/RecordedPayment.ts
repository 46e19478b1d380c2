import { type Option, Schema } from "effect"

/**
 * Upfront payments: `refused` when the chain moved the money but the gateway refused the call (late, foreign
 * grant, asset, policy). Sign-first payments (never executed before the seller answered): `forwarding` while the
 * seller is asked, `settling` once its answer is kept and the transaction is being executed, then `settled`;
 * `not_charged` when the seller failed (nothing executed; the same payment may be presented again), and
 * `settlement_failed` when the chain would not execute it after the seller answered (its answer withheld).
 */
export const PaymentStatus = Schema.Literals([
  "forwarding",
  "forwarded",
  "upstream_failed",
  "refused",
  "settling",
  "settled",
  "not_charged",
  "settlement_failed"
])
export type PaymentStatus = typeof PaymentStatus.Type

/** Why money that moved does not pay for the call: recorded with the payment, whose digest it spends. */
export const PaymentRefusal = Schema.Literals(["challenge_expired", "unknown_grant", "wrong_asset", "policy"])
export type PaymentRefusal = typeof PaymentRefusal.Type

/** The seller's answer to a forwarded payment, as kept for the payer's retries. */
export interface PaidAnswer {
  readonly status: number
  readonly contentType: string | null
  readonly body: Uint8Array
  readonly answeredAt: Date
}

/** A payment as recorded under its digest. */
export interface RecordedPayment {
  readonly digest: string
  readonly nonce: string
  readonly payer: string
  readonly amount: string
  readonly status: PaymentStatus
  /** Why it was refused; null unless `refused`. */
  readonly refusal: PaymentRefusal | null
  /** Present once the payment is `forwarded`, until its answer is no longer kept. */
  readonly answer: Option.Option<PaidAnswer>
}

/** What a verified payment records beyond its proof: the terms it paid and the grant it came from, as they were. */
export interface PaymentClaim {
  readonly digest: string
  readonly nonce: string
  readonly serviceId: string
  readonly revision: number
  readonly serviceName: string
  /** The paying grant's coin type, or the asked asset when the grant is not one this gateway provisioned. */
  readonly asset: string
  readonly recipient: string
  readonly grantObjectId: string
  /** The paying grant's id; null when the grant is not one this gateway has bound to its object (yet). */
  readonly grantId: string | null
  readonly payer: string
  readonly amount: string
  /** Null for a payment being forwarded; why it was refused otherwise. */
  readonly refusal: PaymentRefusal | null
}
