import { Effect, Option, Schema } from "effect"
import { type SqlClient, type SqlError, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PaidAnswer } from "@gateway/domain/payment/RecordedPayment"
import { storeDecoded, storeUnavailable } from "../../storage/Codecs.ts"
import { COLUMNS, paymentOf, Row, type SignFirstPayment, UNSETTLED } from "./SignFirstRows.ts"

const write = (name: string, key: string, statement: Effect.Effect<unknown, SqlError.SqlError>): Effect.Effect<void, Unavailable> =>
  statement.pipe(Effect.asVoid, storeUnavailable, Effect.withSpan(`SignFirstRepo.${name}`, { attributes: { "payment.digest": key } }))

const dropHolds = (sql: SqlClient.SqlClient, digest: string) => sql`DELETE FROM payment_holds WHERE digest = ${digest}`

export const findSignFirst = (sql: SqlClient.SqlClient) => {
  const findRow = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Row,
    execute: (digest) => sql`SELECT ${sql.literal(COLUMNS)} FROM payments WHERE digest = ${digest} AND flow = 'sign_first'`
  })
  return (digest: string): Effect.Effect<Option.Option<SignFirstPayment>, Unavailable> =>
    findRow(digest).pipe(Effect.map(Option.map(paymentOf)), storeDecoded, Effect.withSpan("SignFirstRepo.find", { attributes: { "payment.digest": digest } }))
}

/**
 * The payer's latest sign-first payment of this challenge whose settlement failed with the seller's answer kept:
 * what a payment signed again for the same challenge settles against, without a second forward.
 */
export const findFailedWithAnswer = (sql: SqlClient.SqlClient) => {
  const findRow = SqlSchema.findOneOption({
    Request: Schema.Struct({ nonce: Schema.String, payer: Schema.String }),
    Result: Row,
    execute: ({ nonce, payer }) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM payments
          WHERE nonce = ${nonce} AND payer = ${payer} AND flow = 'sign_first' AND status = 'settlement_failed' AND answer_body IS NOT NULL
          ORDER BY updated_at DESC LIMIT 1`
  })
  return (nonce: string, payer: string): Effect.Effect<Option.Option<SignFirstPayment>, Unavailable> =>
    findRow({ nonce, payer }).pipe(Effect.map(Option.map(paymentOf)), storeDecoded, Effect.withSpan("SignFirstRepo.findFailedWithAnswer"))
}

export const addSponsorSignature = (sql: SqlClient.SqlClient) => (digest: string, signature: string) =>
  write(
    "addSponsorSignature",
    digest,
    sql`UPDATE payments SET signatures = signatures || ${JSON.stringify([signature])}::jsonb, updated_at = now()
        WHERE digest = ${digest} AND jsonb_array_length(signatures) = 1`
  )

export const releasePayment = (sql: SqlClient.SqlClient) => (digest: string, upstreamStatus: number | null) =>
  write(
    "release",
    digest,
    sql.withTransaction(Effect.andThen(
      sql`UPDATE payments SET status = 'not_charged', upstream_status = ${upstreamStatus}, updated_at = now()
          WHERE digest = ${digest} AND status = 'forwarding'`,
      dropHolds(sql, digest)
    ))
  )

export const keepAnswer = (sql: SqlClient.SqlClient) => (digest: string, answer: PaidAnswer) =>
  write(
    "keepAnswer",
    digest,
    sql`UPDATE payments SET status = 'settling', upstream_status = ${answer.status},
          answer_content_type = ${answer.contentType}, answer_body = ${Buffer.from(answer.body)},
          answered_at = ${answer.answeredAt.toISOString()}, updated_at = now()
        WHERE digest = ${digest} AND status = 'forwarding'`
  )

export const markSettled = (sql: SqlClient.SqlClient) => (digest: string) =>
  write(
    "markSettled",
    digest,
    sql.withTransaction(Effect.andThen(
      sql`UPDATE payments SET status = 'settled', updated_at = now() WHERE digest = ${digest} AND status = 'settling'`,
      dropHolds(sql, digest)
    ))
  )

export const markFailed = (sql: SqlClient.SqlClient) => (digest: string, reason: string) =>
  write(
    "markFailed",
    digest,
    sql.withTransaction(Effect.andThen(
      sql`UPDATE payments SET status = 'settlement_failed', settle_error = ${reason}, updated_at = now()
          WHERE digest = ${digest} AND status IN ${sql.in(UNSETTLED)}`,
      dropHolds(sql, digest)
    ))
  )

export const unsettledPayments = (sql: SqlClient.SqlClient) => {
  const find = SqlSchema.findAll({
    Request: Schema.Struct({ forwarding: Schema.Number, settling: Schema.Number }),
    Result: Row,
    // The database's clock, not a replica's: replicas whose clocks disagree still agree on what is stale.
    execute: (ms) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM payments
          WHERE flow = 'sign_first' AND status IN ${sql.in(UNSETTLED)}
            AND updated_at < now() - make_interval(secs => CASE WHEN status = 'settling' THEN ${ms.settling / 1000}
              ELSE ${ms.forwarding / 1000} END)`
  })
  return (forwardingStaleMs: number, settlingStaleMs: number): Effect.Effect<ReadonlyArray<SignFirstPayment>, Unavailable> =>
    find({ forwarding: forwardingStaleMs, settling: settlingStaleMs }).pipe(
      Effect.map((rows) => rows.map(paymentOf)),
      storeDecoded,
      Effect.withSpan("SignFirstRepo.unsettled")
    )
}

export const banPayer = (sql: SqlClient.SqlClient) => (payer: string, until: Date, reason: string) =>
  write(
    "ban",
    payer,
    sql`INSERT INTO sign_first_bans (payer, until, reason) VALUES (${payer}, ${until.toISOString()}, ${reason})
        ON CONFLICT (payer) DO UPDATE SET until = EXCLUDED.until, reason = EXCLUDED.reason`
  )

export const bannedUntil = (sql: SqlClient.SqlClient) => (payer: string): Effect.Effect<Option.Option<Date>, Unavailable> =>
  sql<{ readonly until: Date | string }>`SELECT until FROM sign_first_bans WHERE payer = ${payer} AND until > now()`.pipe(
    Effect.map(([row]) => (row === undefined ? Option.none() : Option.some(new Date(row.until)))),
    storeUnavailable,
    Effect.withSpan("SignFirstRepo.bannedUntil")
  )
