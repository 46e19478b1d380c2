import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { SESSION_GRACE_MS } from "@gateway/domain/chain/SessionVoucher"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeDecoded, storeUnavailable } from "../../storage/Codecs.ts"
import { COLUMNS, recordOf, Row, type SessionRecord } from "./SessionRows.ts"

/** Sessions one claim or close round takes at most: one programmable transaction holds their calls. */
export const SESSIONS_PER_ROUND = 50

const GRACE = Number(SESSION_GRACE_MS)

const selectRecords = (sql: SqlClient.SqlClient, name: string, where: string) => {
  const find = SqlSchema.findAll({
    Request: Schema.Number,
    Result: Row,
    execute: (nowMs) =>
      sql.unsafe(
        `SELECT ${COLUMNS} FROM payment_sessions s JOIN grants g ON g.grant_object_id = s.grant_object_id
         WHERE ${where} ORDER BY s.expiry_ms LIMIT ${SESSIONS_PER_ROUND}`,
        [nowMs]
      )
  })
  return (nowMs: number): Effect.Effect<ReadonlyArray<SessionRecord>, Unavailable> =>
    find(nowMs).pipe(Effect.map((rows) => rows.map(recordOf)), storeDecoded, Effect.withSpan(`PaymentSessionRepo.${name}`))
}

/**
 * Sessions whose charged vouchers should be claimed now, while their claims are valid: the seller asked, half
 * the deposit is unclaimed, or the session expires within `leadMs`.
 */
export const dueForClaim = (sql: SqlClient.SqlClient, leadMs: number) =>
  selectRecords(
    sql,
    "dueForClaim",
    `s.state = 'open' AND s.charged > s.claimed AND s.charged_signature IS NOT NULL
     AND s.expiry_ms + ${GRACE} >= $1 AND (s.close_at_ms = 0 OR s.close_at_ms >= $1)
     AND (s.claim_requested OR (s.charged - s.claimed) * 2 >= s.deposit OR s.expiry_ms - $1 < ${leadMs})`
  )

/** Sessions to end on chain: a final voucher asked to, or their claims are over (the rest goes back to the pool). */
export const dueForClose = (sql: SqlClient.SqlClient) =>
  selectRecords(
    sql,
    "dueForClose",
    `(s.state = 'closing' AND (s.pending_until_ms IS NULL OR s.pending_until_ms < $1))
     OR (s.state = 'open' AND (s.expiry_ms + ${GRACE} < $1 OR (s.close_at_ms <> 0 AND s.close_at_ms < $1)))`
  )

export const markClaimed = (sql: SqlClient.SqlClient) => (sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET claimed = GREATEST(claimed, ${cumulative.toString()}::numeric),
        claim_requested = claim_requested AND charged > ${cumulative.toString()}::numeric, updated_at = now()
      WHERE session_id = ${sessionId}`.pipe(Effect.asVoid, storeUnavailable, Effect.withSpan("PaymentSessionRepo.markClaimed"))

/** How a session ended on chain: by our transaction (its digest, what it returned), or by someone else's (both unknown). */
export interface ClosedOnChain {
  readonly digest: string | null
  readonly claimed: bigint
  readonly returned: bigint | null
}

export const markClosed = (sql: SqlClient.SqlClient) =>
(sessionId: string, closed: ClosedOnChain): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET state = 'closed', close_digest = ${closed.digest}, claimed = ${closed.claimed.toString()}::numeric,
        returned = ${closed.returned === null ? null : closed.returned.toString()}::numeric, pending = NULL, pending_signature = NULL, pending_until_ms = NULL, updated_at = now()
      WHERE session_id = ${sessionId}`.pipe(Effect.asVoid, storeUnavailable, Effect.withSpan("PaymentSessionRepo.markClosed"))

/**
 * The delegate's final voucher: no voucher is accepted after it. Only while no call is in flight, and only for
 * at least what was charged, so closing never takes from the seller what its answered calls earned.
 */
export const beginClose = (sql: SqlClient.SqlClient) =>
(input: { readonly sessionId: string; readonly cumulative: bigint; readonly signature: Uint8Array; readonly nowMs: number }): Effect.Effect<
  boolean,
  Unavailable
> =>
  sql`UPDATE payment_sessions SET state = 'closing', final_cumulative = ${input.cumulative.toString()}::numeric,
        final_signature = ${input.signature}, updated_at = now()
      WHERE session_id = ${input.sessionId} AND state = 'open' AND charged <= ${input.cumulative.toString()}::numeric
        AND ${input.cumulative.toString()}::numeric <= deposit
        AND (pending_until_ms IS NULL OR pending_until_ms < ${input.nowMs})
      RETURNING session_id`.pipe(Effect.map((rows) => rows.length === 1), storeUnavailable, Effect.withSpan("PaymentSessionRepo.beginClose"))

/** Asks the next claim round to claim every unclaimed voucher of this payee's sessions. */
export const requestClaims = (sql: SqlClient.SqlClient) => (payee: string): Effect.Effect<number, Unavailable> =>
  sql`UPDATE payment_sessions SET claim_requested = true, updated_at = now()
      WHERE payee = ${payee} AND state = 'open' AND charged > claimed
      RETURNING session_id`.pipe(Effect.map((rows) => rows.length), storeUnavailable, Effect.withSpan("PaymentSessionRepo.requestClaims"))

/** The grants of sessions not closed yet: the ones whose pause or revoke the gateway watches for on chain. */
export const liveGrants = (sql: SqlClient.SqlClient): Effect.Effect<ReadonlyArray<string>, Unavailable> =>
  sql<{ readonly grantObjectId: string }>`SELECT DISTINCT grant_object_id FROM payment_sessions WHERE state <> 'closed'`.pipe(
    Effect.map((rows) => rows.map((r) => r.grantObjectId)),
    storeUnavailable,
    Effect.withSpan("PaymentSessionRepo.liveGrants")
  )

/** What the chain says now of a grant with live sessions: paused, revoked, or neither. */
export const setGrantHalt = (sql: SqlClient.SqlClient) => (grantObjectId: string, halt: "paused" | "revoked" | null): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET grant_halt = ${halt}, claim_requested = claim_requested OR (${halt}::text IS NOT NULL AND charged > claimed),
        updated_at = now()
      WHERE grant_object_id = ${grantObjectId} AND state <> 'closed' AND grant_halt IS DISTINCT FROM ${halt}`.pipe(
      Effect.asVoid,
      storeUnavailable,
      Effect.withSpan("PaymentSessionRepo.setGrantHalt")
    )
