import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeDecoded, storeUnavailable } from "../../storage/Codecs.ts"
import { COLUMNS, type LearnedSession, recordOf, Row, type SessionRecord } from "./SessionRows.ts"

const span = (name: string, sessionId: string) => Effect.withSpan(`PaymentSessionRepo.${name}`, { attributes: { "session.id": sessionId } })

export const findSession = (sql: SqlClient.SqlClient) => {
  const findRow = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Row,
    execute: (id) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM payment_sessions s JOIN grants g ON g.grant_object_id = s.grant_object_id
          WHERE s.session_id = ${id}`
  })
  return (sessionId: string): Effect.Effect<Option.Option<SessionRecord>, Unavailable> =>
    findRow(sessionId).pipe(Effect.map(Option.map(recordOf)), storeDecoded, span("find", sessionId))
}

/** Remembers a session the chain showed; a second replica learning it at once changes nothing. */
export const learnSession = (sql: SqlClient.SqlClient) => (s: LearnedSession): Effect.Effect<void, Unavailable> =>
  sql`INSERT INTO payment_sessions (session_id, grant_object_id, initial_shared_version, owner, delegate, payee, coin_type,
        voucher_key, deposit, expiry_ms, close_at_ms, claimed, opened_at, updated_at)
      VALUES (${s.sessionId}, ${s.grantObjectId}, ${s.initialSharedVersion.toString()}, ${s.owner}, ${s.delegate}, ${s.payee},
        ${s.coinType}, ${s.voucherKey}, ${s.deposit.toString()}::numeric, ${s.expiryMs.toString()}, ${s.closeAtMs.toString()},
        ${s.claimed.toString()}::numeric, now(), now())
      ON CONFLICT (session_id) DO NOTHING`.pipe(Effect.asVoid, storeUnavailable, span("learn", s.sessionId))

/** A top-up the chain shows: the deposit only grows. */
export const raiseDeposit = (sql: SqlClient.SqlClient) => (sessionId: string, deposit: bigint): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET deposit = GREATEST(deposit, ${deposit.toString()}::numeric), updated_at = now()
      WHERE session_id = ${sessionId}`.pipe(Effect.asVoid, storeUnavailable, span("raiseDeposit", sessionId))

/** One call's voucher, to take its session with: in flight until `untilMs`. */
export interface VoucherAdmission {
  readonly sessionId: string
  readonly cumulative: bigint
  readonly signature: Uint8Array
  readonly price: bigint
  readonly nowMs: number
  readonly untilMs: number
}

/**
 * Takes the session for one call paid by this voucher, in one compare-and-set: open, no close asked for, its grant
 * neither paused nor revoked, the amount grown by at least the price and within the deposit, no other voucher in
 * flight. False when any of that no longer holds (another replica took it first, a call settled meanwhile).
 */
export const admitVoucher = (sql: SqlClient.SqlClient) => (input: VoucherAdmission): Effect.Effect<boolean, Unavailable> =>
  sql`UPDATE payment_sessions s
      SET pending = ${input.cumulative.toString()}::numeric, pending_signature = ${input.signature},
        pending_until_ms = ${input.untilMs}, updated_at = now()
      WHERE s.session_id = ${input.sessionId} AND s.state = 'open' AND s.close_at_ms = 0 AND s.grant_halt IS NULL
        AND s.charged + ${input.price.toString()}::numeric <= ${input.cumulative.toString()}::numeric
        AND ${input.cumulative.toString()}::numeric <= s.deposit
        AND (s.pending_until_ms IS NULL OR s.pending_until_ms < ${input.nowMs})
        AND EXISTS (SELECT 1 FROM grants g WHERE g.grant_object_id = s.grant_object_id AND g.status NOT IN ('paused', 'revoked'))
      RETURNING s.session_id`.pipe(Effect.map((rows) => rows.length === 1), storeUnavailable, span("admit", input.sessionId))

/** The seller answered the call the voucher paid: it is charged, and is what a claim presents. */
export const chargeVoucher = (sql: SqlClient.SqlClient) => (sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET charged = pending, charged_signature = pending_signature, calls = calls + 1,
        pending = NULL, pending_signature = NULL, pending_until_ms = NULL, updated_at = now()
      WHERE session_id = ${sessionId} AND pending = ${cumulative.toString()}::numeric`.pipe(
      Effect.asVoid,
      storeUnavailable,
      span("charge", sessionId)
    )

/** The seller failed: the call does not count, and the same voucher may pay the next one. */
export const releaseVoucher = (sql: SqlClient.SqlClient) => (sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable> =>
  sql`UPDATE payment_sessions SET pending = NULL, pending_signature = NULL, pending_until_ms = NULL, updated_at = now()
      WHERE session_id = ${sessionId} AND pending = ${cumulative.toString()}::numeric`.pipe(
      Effect.asVoid,
      storeUnavailable,
      span("release", sessionId)
    )
