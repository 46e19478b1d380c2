import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { onUniqueViolation, storeDecoded, storeUnavailable, Timestamp } from "../storage/Codecs.ts"

/** `refused`: the chain moved the money but the gateway refused the call (late, foreign grant, asset, policy). */
export const PaymentStatus = Schema.Literals(["forwarding", "forwarded", "upstream_failed", "refused"])
export type PaymentStatus = typeof PaymentStatus.Type

/** The seller's answer to a forwarded payment, as kept for the payer's retries. */
export interface PaidAnswer {
  readonly status: number
  readonly contentType: string | null
  readonly body: Uint8Array
  readonly answeredAt: Date
}

export interface Payment {
  readonly digest: string
  readonly nonce: string
  readonly payer: string
  readonly amount: string
  readonly status: PaymentStatus
  readonly refusal: string | null
  /** Present once the payment is `forwarded`. */
  readonly answer: Option.Option<PaidAnswer>
}

const PaymentRow = Schema.Struct({
  digest: Schema.String,
  nonce: Schema.String,
  payer: Schema.String,
  amount: Schema.String,
  status: PaymentStatus,
  refusal: Schema.NullOr(Schema.String),
  upstreamStatus: Schema.NullOr(Schema.Number),
  answerContentType: Schema.NullOr(Schema.String),
  answerBody: Schema.NullOr(Schema.Uint8Array),
  answeredAt: Schema.NullOr(Timestamp)
})

const paymentOf = (r: typeof PaymentRow.Type): Payment => ({
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

/** What a payment records beyond its proof: the terms it paid and the grant it came from, as they were. */
export interface PaymentClaim {
  readonly digest: string
  readonly nonce: string
  readonly serviceId: string
  readonly revision: number
  readonly serviceName: string
  readonly asset: string
  readonly recipient: string
  readonly grantObjectId: string
  /** The paying grant's id; null when the grant is not one this gateway has bound to its object (yet). */
  readonly grantId: string | null
  readonly payer: string
  readonly amount: string
  readonly refusal: string | null
  readonly now: Date
}

/**
 * SQL for the payments that answered 402 challenges. A payment is keyed by its digest alone: a
 * challenge is a price quote that any number of distinct payments may pay, each served once.
 */
export class PaymentRepo extends Context.Service<PaymentRepo, {
  /** The payment recorded for this digest, if any. */
  findPayment(digest: string): Effect.Effect<Option.Option<Payment>, Unavailable>
  /**
   * Records a verified payment, as being forwarded or (with a refusal) as refused; false when its
   * digest is already recorded.
   */
  claim(input: PaymentClaim): Effect.Effect<boolean, Unavailable>
  /**
   * Takes a payment back for one more forward: one whose forward failed, or one left in flight
   * longer than `staleMs` by a request that died. False when another request has it.
   */
  reclaim(digest: string, staleMs: number): Effect.Effect<boolean, Unavailable>
  /** Ends a forward that failed (`upstream_failed`, with the seller's status if it answered). */
  settleFailed(digest: string, upstreamStatus: number | null): Effect.Effect<void, Unavailable>
  /** Ends a forward the seller answered, keeping the answer for the payer's retries. */
  settleForwarded(digest: string, answer: Omit<PaidAnswer, "answeredAt">, now: Date): Effect.Effect<void, Unavailable>
  /**
   * Drops the kept answers (body, status, content type) of payments answered before `cutoff`, keeping
   * the payments themselves; how many were dropped.
   */
  forgetAnswersBefore(cutoff: Date): Effect.Effect<number, Unavailable>
  /**
   * The payments made from these grant objects (a signer's), newest first (time, then digest), up to
   * `limit`, after `cursor`. The caller has checked the signer is the owner's.
   */
  listForGrants(grantObjectIds: ReadonlyArray<string>, limit: number, cursor: Option.Option<PaymentListCursor>): Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>
  /** The payments made to a service, newest first, as `listForGrants`. The caller has checked the service is the seller's. */
  listForService(serviceId: string, limit: number, cursor: Option.Option<PaymentListCursor>): Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>
}>()("@gateway/server/PaymentRepo") {
  static readonly layer = Layer.effect(
    PaymentRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Keyset paging on (created_at, digest): a payment recorded while the owner pages lands before the
      // first page, never between pages.
      const page = SqlSchema.findAll({
        Request: ListingRequest,
        Result: PaymentRecord,
        execute: ({ grantObjectIds, serviceId, limit, cursor }) =>
          sql`SELECT digest, service_id, service_name, amount, asset, recipient, payer, grant_id, grant_object_id, status,
                refusal, upstream_status, created_at
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
      const listForGrants = (grantObjectIds: ReadonlyArray<string>, limit: number, cursor: Option.Option<PaymentListCursor>) =>
        grantObjectIds.length === 0
          ? Effect.succeed([])
          : page({ grantObjectIds, serviceId: null, limit, cursor: cursorOf(cursor) }).pipe(storeDecoded, Effect.withSpan("PaymentRepo.listForGrants"))
      const listForService = (serviceId: string, limit: number, cursor: Option.Option<PaymentListCursor>) =>
        page({ grantObjectIds: null, serviceId, limit, cursor: cursorOf(cursor) }).pipe(
          storeDecoded,
          Effect.withSpan("PaymentRepo.listForService", { attributes: { "service.id": serviceId } })
        )
      const paymentBy = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PaymentRow,
        execute: (digest) =>
          sql`SELECT digest, nonce, payer, amount, status, refusal, upstream_status, answer_content_type, answer_body,
                answered_at FROM payments
              WHERE digest = ${digest}`
      })
      return PaymentRepo.of({
        findPayment: (digest) =>
          paymentBy(digest).pipe(Effect.map(Option.map(paymentOf)), storeDecoded, Effect.withSpan("PaymentRepo.findPayment")),
        claim: (p) =>
          sql`INSERT INTO payments (digest, nonce, service_id, revision, service_name, asset, recipient, grant_object_id, grant_id,
                payer, amount, status, refusal, created_at, updated_at)
              VALUES (${p.digest}, ${p.nonce}, ${p.serviceId}, ${p.revision}, ${p.serviceName}, ${p.asset}, ${p.recipient},
                ${p.grantObjectId}, ${p.grantId}, ${p.payer}, ${p.amount},
                ${p.refusal === null ? "forwarding" : "refused"}, ${p.refusal}, ${p.now.toISOString()}, now())`.pipe(
            Effect.as(true),
            onUniqueViolation(() => false),
            storeUnavailable,
            Effect.withSpan("PaymentRepo.claim", { attributes: { "payment.digest": p.digest, "service.id": p.serviceId } })
          ),
        reclaim: (digest, staleMs) =>
          // The database's clock, not a replica's: replicas whose clocks disagree still agree on what is stale.
          sql`UPDATE payments SET status = 'forwarding', updated_at = now()
              WHERE digest = ${digest} AND (status = 'upstream_failed'
                OR (status = 'forwarding' AND updated_at < now() - make_interval(secs => ${staleMs / 1000})))
              RETURNING digest`.pipe(
            Effect.map((rows) => rows.length === 1),
            storeUnavailable,
            Effect.withSpan("PaymentRepo.reclaim", { attributes: { "payment.digest": digest } })
          ),
        settleFailed: (digest, upstreamStatus) =>
          sql`UPDATE payments SET status = 'upstream_failed', upstream_status = ${upstreamStatus}, updated_at = now()
              WHERE digest = ${digest}`.pipe(Effect.asVoid, storeUnavailable, Effect.withSpan("PaymentRepo.settleFailed", { attributes: { "payment.digest": digest } })),
        settleForwarded: (digest, answer, now) =>
          sql`UPDATE payments SET status = 'forwarded', upstream_status = ${answer.status},
                answer_content_type = ${answer.contentType}, answer_body = ${Buffer.from(answer.body)},
                answered_at = ${now.toISOString()}, updated_at = now()
              WHERE digest = ${digest}`.pipe(Effect.asVoid, storeUnavailable, Effect.withSpan("PaymentRepo.settleForwarded", { attributes: { "payment.digest": digest } })),
        forgetAnswersBefore: (cutoff) =>
          sql`UPDATE payments SET upstream_status = NULL, answer_content_type = NULL, answer_body = NULL
              WHERE answer_body IS NOT NULL AND answered_at < ${cutoff.toISOString()}
              RETURNING digest`.pipe(Effect.map((rows) => rows.length), storeUnavailable, Effect.withSpan("PaymentRepo.forgetAnswersBefore")),
        listForGrants,
        listForService
      })
    })
  )
}
