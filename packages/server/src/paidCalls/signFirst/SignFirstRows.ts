import { Option, Schema } from "effect"
import { type PaidAnswer, type PaymentClaim, PaymentStatus } from "@gateway/domain/payment/RecordedPayment"
import { JsonColumn, Timestamp } from "../../storage/Codecs.ts"

/** A sign-first payment as stored: what settling it, answering it again and recovering it after a crash need. */
export interface SignFirstPayment {
  readonly digest: string
  readonly nonce: string
  readonly serviceId: string
  readonly payer: string
  readonly amount: string
  readonly status: PaymentStatus
  readonly txBytes: Uint8Array
  /** The payer's signature, then the sponsor's once co-signed. */
  readonly signatures: ReadonlyArray<string>
  readonly sponsored: boolean
  /** The last epoch the transaction may execute in. */
  readonly expiresEpoch: bigint
  readonly settleError: string | null
  readonly answer: Option.Option<PaidAnswer>
  /** When its row last changed, by the store's clock. */
  readonly updatedAt: Date
}

/** What reserving a sign-first payment came to. */
export type ReserveOutcome =
  | { readonly _tag: "Reserved" }
  /** Another request holds this payment (forwarding or settling it). */
  | { readonly _tag: "InFlight" }
  /** Another sign-first payment of this challenge is unsettled or settled: a challenge is paid once. */
  | { readonly _tag: "ChallengeTaken" }
  /** An owned object (or the payer's address balance) is held by another unsettled payment. */
  | { readonly _tag: "Overlap"; readonly hold: string }
  /** The grant's unsettled payments and this one would spend more than the grant has left. */
  | { readonly _tag: "OverBudget"; readonly reserved: bigint; readonly available: bigint }
  /** The digest is recorded in a state a new reservation cannot take (settled, failed, an upfront payment). */
  | { readonly _tag: "Recorded" }

export interface Reservation {
  readonly claim: PaymentClaim
  readonly txBytes: Uint8Array
  readonly signature: string
  readonly sponsored: boolean
  readonly expiresEpoch: bigint
  /** Owned object ids, and `payer:<address>` for a transfer drawn from an address balance. */
  readonly holds: ReadonlyArray<string>
  /** For a grant payment: what the grant has left on chain (budget and window); unsettled payments count against it. */
  readonly grantAvailable: bigint | undefined
}

/** The payment statuses of a sign-first payment not settled yet. */
export const UNSETTLED = ["forwarding", "settling"] as const

/** A sign-first payment's row as read. */
export const Row = Schema.Struct({
  digest: Schema.String,
  nonce: Schema.String,
  serviceId: Schema.String,
  payer: Schema.String,
  amount: Schema.String,
  status: PaymentStatus,
  txBytes: Schema.Uint8Array,
  signatures: JsonColumn(Schema.Array(Schema.String)),
  sponsored: Schema.Boolean,
  expiresEpoch: Schema.String,
  settleError: Schema.NullOr(Schema.String),
  upstreamStatus: Schema.NullOr(Schema.Number),
  answerContentType: Schema.NullOr(Schema.String),
  answerBody: Schema.NullOr(Schema.Uint8Array),
  answeredAt: Schema.NullOr(Timestamp),
  updatedAt: Timestamp
})

export const paymentOf = (r: typeof Row.Type): SignFirstPayment => ({
  digest: r.digest,
  nonce: r.nonce,
  serviceId: r.serviceId,
  payer: r.payer,
  amount: r.amount,
  status: r.status,
  txBytes: new Uint8Array(r.txBytes),
  signatures: r.signatures,
  sponsored: r.sponsored,
  expiresEpoch: BigInt(r.expiresEpoch),
  settleError: r.settleError,
  answer: r.upstreamStatus === null || r.answerBody === null || r.answeredAt === null
    ? Option.none()
    : Option.some({ status: r.upstreamStatus, contentType: r.answerContentType, body: new Uint8Array(r.answerBody), answeredAt: r.answeredAt }),
  updatedAt: r.updatedAt
})

export const COLUMNS = "digest, nonce, service_id, payer, amount, status, tx_bytes, signatures, sponsored, expires_epoch, settle_error, " +
  "upstream_status, answer_content_type, answer_body, answered_at, updated_at"

