import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { PaymentRefusal, PaymentStatus, type RecordedPayment } from "@gateway/domain/payment/RecordedPayment"
import { storeDecoded, Timestamp } from "../storage/Codecs.ts"

/** A payment as stored, its kept answer in columns of its own: read as the domain's `RecordedPayment`. */
const PaymentRow = Schema.Struct({
  digest: Schema.String,
  nonce: Schema.String,
  payer: Schema.String,
  amount: Schema.String,
  status: PaymentStatus,
  refusal: Schema.NullOr(PaymentRefusal),
  upstreamStatus: Schema.NullOr(Schema.Number),
  answerContentType: Schema.NullOr(Schema.String),
  answerBody: Schema.NullOr(Schema.Uint8Array),
  answeredAt: Schema.NullOr(Timestamp)
})

const paymentOf = (r: typeof PaymentRow.Type): RecordedPayment => ({
  digest: r.digest,
  nonce: r.nonce,
  payer: r.payer,
  amount: r.amount,
  status: r.status,
  refusal: r.refusal,
  answer: r.upstreamStatus === null || r.answerBody === null || r.answeredAt === null
    ? Option.none()
    : Option.some({
      status: r.upstreamStatus,
      contentType: r.answerContentType,
      body: new Uint8Array(r.answerBody),
      answeredAt: r.answeredAt
    })
})

/**
 * One recorded payment as its payer's owner or its seller sees it, read from the payment alone: name,
 * asset, recipient, grant and signer are as they were when it was claimed.
 */
export const PaymentRecord = Schema.Struct({
  digest: Schema.String,
  serviceId: Schema.String,
  serviceName: Schema.String,
  amount: Schema.String,
  /** The paying grant's coin type, or the service's asset when the grant is not one this gateway provisioned. */
  asset: Schema.String,
  recipient: Schema.String,
  payer: Schema.String,
  /** The gateway's id for the paying grant; null when the grant is not one it provisioned. */
  grantId: Schema.NullOr(Schema.String),
  grantObjectId: Schema.String,
  status: PaymentStatus,
  refusal: Schema.NullOr(Schema.String),
  upstreamStatus: Schema.NullOr(Schema.Number),
  /** Why a sign-first payment's settlement failed; null otherwise. */
  settleError: Schema.NullOr(Schema.String),
  createdAt: Timestamp
})
export type PaymentRecord = typeof PaymentRecord.Type

/** Where a listing resumes: after the payment with this time and digest, newest first. */
export interface PaymentListCursor {
  readonly createdAt: Date
  readonly digest: string
}

/**
 * One page of a listing: the payments from any of `grantObjectIds` (a signer's grants) or to `serviceId`,
 * after the cursor (ISO time and digest).
 */
const ListingRequest = Schema.Struct({
  grantObjectIds: Schema.NullOr(Schema.Array(Schema.String)),
  serviceId: Schema.NullOr(Schema.String),
  limit: Schema.Number,
  cursor: Schema.NullOr(Schema.Struct({ createdAt: Schema.String, digest: Schema.String }))
})

export const findPayment = (sql: SqlClient.SqlClient) => {
  const paymentBy = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: PaymentRow,
    execute: (digest) =>
      sql`SELECT digest, nonce, payer, amount, status, refusal, upstream_status, answer_content_type, answer_body,
            answered_at FROM payments
          WHERE digest = ${digest}`
  })
  return (digest: string): Effect.Effect<Option.Option<RecordedPayment>, Unavailable> =>
    paymentBy(digest).pipe(Effect.map(Option.map(paymentOf)), storeDecoded, Effect.withSpan("PaymentRepo.findPayment"))
}

// Keyset paging on (created_at, digest): a payment recorded while the owner pages lands before the first page,
// never between pages.
const pageOfPayments = (sql: SqlClient.SqlClient) =>
  SqlSchema.findAll({
    Request: ListingRequest,
    Result: PaymentRecord,
    execute: ({ grantObjectIds, serviceId, limit, cursor }) =>
      sql`SELECT digest, service_id, service_name, amount, asset, recipient, payer, grant_id, grant_object_id, status,
            refusal, upstream_status, settle_error, created_at
          FROM payments
          WHERE ${sql.and([
        grantObjectIds === null ? sql`service_id = ${serviceId}` : sql.in("grant_object_id", grantObjectIds),
        ...(cursor === null ? [] : [sql`(created_at, digest) < (${cursor.createdAt}::timestamptz, ${cursor.digest})`])
      ])}
          ORDER BY created_at DESC, digest DESC
          LIMIT ${limit}`
  })

const cursorOf = (cursor: Option.Option<PaymentListCursor>) =>
  Option.getOrNull(Option.map(cursor, (c) => ({ createdAt: c.createdAt.toISOString(), digest: c.digest })))

type Listing = Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>

export const listForGrants = (sql: SqlClient.SqlClient) => {
  const page = pageOfPayments(sql)
  return (grantObjectIds: ReadonlyArray<string>, limit: number, cursor: Option.Option<PaymentListCursor>): Listing => {
    // A signer none of whose grants has an object yet has no payments: nothing to ask the store.
    const found = grantObjectIds.length === 0
      ? Effect.succeed([])
      : page({ grantObjectIds, serviceId: null, limit, cursor: cursorOf(cursor) }).pipe(storeDecoded)
    return found.pipe(Effect.withSpan("PaymentRepo.listForGrants"))
  }
}

export const listForService = (sql: SqlClient.SqlClient) => {
  const page = pageOfPayments(sql)
  return (serviceId: string, limit: number, cursor: Option.Option<PaymentListCursor>): Listing =>
    page({ grantObjectIds: null, serviceId, limit, cursor: cursorOf(cursor) }).pipe(
      storeDecoded,
      Effect.withSpan("PaymentRepo.listForService", { attributes: { "service.id": serviceId } })
    )
}
