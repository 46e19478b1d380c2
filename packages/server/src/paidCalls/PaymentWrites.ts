import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PaidAnswer, PaymentClaim } from "@gateway/domain/payment/RecordedPayment"
import { onUniqueViolation, storeUnavailable } from "../storage/Codecs.ts"

export const claimPayment = (sql: SqlClient.SqlClient) => (p: PaymentClaim, now: Date): Effect.Effect<boolean, Unavailable> =>
  sql`INSERT INTO payments (digest, nonce, service_id, revision, service_name, asset, recipient, grant_object_id, grant_id,
        payer, amount, status, refusal, created_at, updated_at)
      VALUES (${p.digest}, ${p.nonce}, ${p.serviceId}, ${p.revision}, ${p.serviceName}, ${p.asset}, ${p.recipient},
        ${p.grantObjectId}, ${p.grantId}, ${p.payer}, ${p.amount},
        ${p.refusal === null ? "forwarding" : "refused"}, ${p.refusal}, ${now.toISOString()}, now())`.pipe(
    Effect.as(true),
    onUniqueViolation(() => false),
    storeUnavailable,
    Effect.withSpan("PaymentRepo.claim", { attributes: { "payment.digest": p.digest, "service.id": p.serviceId } })
  )

export const reclaimPayment = (sql: SqlClient.SqlClient) => (digest: string, staleMs: number): Effect.Effect<boolean, Unavailable> =>
  // The database's clock, not a replica's: replicas whose clocks disagree still agree on what is stale.
  sql`UPDATE payments SET status = 'forwarding', updated_at = now()
      WHERE digest = ${digest} AND (status = 'upstream_failed'
        OR (status = 'forwarding' AND updated_at < now() - make_interval(secs => ${staleMs / 1000})))
      RETURNING digest`.pipe(
    Effect.map((rows) => rows.length === 1),
    storeUnavailable,
    Effect.withSpan("PaymentRepo.reclaim", { attributes: { "payment.digest": digest } })
  )

export const settleFailed = (sql: SqlClient.SqlClient) => (digest: string, upstreamStatus: number | null): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payments SET status = 'upstream_failed', upstream_status = ${upstreamStatus}, updated_at = now()
      WHERE digest = ${digest}`.pipe(
    Effect.asVoid,
    storeUnavailable,
    Effect.withSpan("PaymentRepo.settleFailed", { attributes: { "payment.digest": digest } })
  )

export const settleForwarded = (sql: SqlClient.SqlClient) =>
(digest: string, answer: Omit<PaidAnswer, "answeredAt">, now: Date): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payments SET status = 'forwarded', upstream_status = ${answer.status},
        answer_content_type = ${answer.contentType}, answer_body = ${Buffer.from(answer.body)},
        answered_at = ${now.toISOString()}, updated_at = now()
      WHERE digest = ${digest}`.pipe(
    Effect.asVoid,
    storeUnavailable,
    Effect.withSpan("PaymentRepo.settleForwarded", { attributes: { "payment.digest": digest } })
  )

export const forgetAnswersBefore = (sql: SqlClient.SqlClient) => (cutoff: Date): Effect.Effect<number, Unavailable> =>
  sql`UPDATE payments SET upstream_status = NULL, answer_content_type = NULL, answer_body = NULL
      WHERE answer_body IS NOT NULL AND answered_at < ${cutoff.toISOString()}
      RETURNING digest`.pipe(Effect.map((rows) => rows.length), storeUnavailable, Effect.withSpan("PaymentRepo.forgetAnswersBefore"))
