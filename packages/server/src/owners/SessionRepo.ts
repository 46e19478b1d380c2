import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema, type Statement } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { Count, storeDecoded, storeUnavailable } from "../storage/Codecs.ts"

/** What one sweep deleted. */
export interface Swept {
  readonly challenges: number
  readonly sessions: number
  readonly internalHops: number
}

const DeletedCount = Schema.Struct({ n: Count })

/** SQL for sign-in challenges, owner sessions and used internal-hop credentials. */
export class SessionRepo extends Context.Service<SessionRepo, {
  insertChallenge(c: { nonce: string; address: string; message: string; expiresAt: Date }): Effect.Effect<void, Unavailable>
  /**
   * Marks the challenge used if it is unused, unexpired, and was issued to
   * exactly this address with exactly this text; at most one caller ever gets
   * it, and a text that differs in anything consumes nothing.
   */
  consumeChallenge(c: { nonce: string; address: string; message: string; now: Date }): Effect.Effect<boolean, Unavailable>
  insertSession(s: { tokenHash: string; address: string; createdAt: Date; expiresAt: Date }): Effect.Effect<void, Unavailable>
  /** The owner of an unexpired session. */
  findSession(tokenHash: string, now: Date): Effect.Effect<Option.Option<SuiAddress>, Unavailable>
  /** Deletes one session; how many were deleted (0 or 1). */
  deleteSession(tokenHash: string): Effect.Effect<number, Unavailable>
  /** Deletes every session of an owner; how many were deleted. */
  deleteSessionsOf(address: string): Effect.Effect<number, Unavailable>
  /** Deletes every challenge, session and internal-hop record that has expired by `now`. */
  deleteExpired(now: Date): Effect.Effect<Swept, Unavailable>
  /** Records a used internal-hop MAC; false when it was already used (a replay). */
  useInternalHop(mac: string, expiresAt: Date, now: Date): Effect.Effect<boolean, Unavailable>
}>()("@gateway/server/SessionRepo") {
  static readonly layer = Layer.effect(
    SessionRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      /** Runs a DELETE … RETURNING 1 and counts its rows in the store, so no row travels back. */
      const deleted = (statement: Statement.Statement<unknown>) =>
        sql`WITH gone AS (${statement}) SELECT count(*)::int AS n FROM gone`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknownEffect(DeletedCount)(rows[0])),
          Effect.map(({ n }) => n)
        )
      const sessionOwner = SqlSchema.findOneOption({
        Request: Schema.Struct({ tokenHash: Schema.String, now: Schema.Date }),
        Result: Schema.Struct({ address: SuiAddress }),
        execute: ({ tokenHash, now }) =>
          sql`SELECT address FROM owner_sessions WHERE token_hash = ${tokenHash} AND expires_at > ${now.toISOString()}`
      })
      return SessionRepo.of({
        insertChallenge: (c) =>
          sql`INSERT INTO auth_challenges (nonce, address, message, expires_at)
              VALUES (${c.nonce}, ${c.address}, ${c.message}, ${c.expiresAt.toISOString()})`.pipe(
            Effect.asVoid,
            storeUnavailable,
            Effect.withSpan("SessionRepo.insertChallenge")
          ),
        consumeChallenge: (c) =>
          sql`UPDATE auth_challenges SET used_at = ${c.now.toISOString()}
              WHERE nonce = ${c.nonce} AND address = ${c.address} AND message = ${c.message}
                AND used_at IS NULL AND expires_at > ${c.now.toISOString()}
              RETURNING nonce`.pipe(
            Effect.map((rows) => rows.length === 1),
            storeUnavailable,
            Effect.withSpan("SessionRepo.consumeChallenge")
          ),
        insertSession: (s) =>
          sql`INSERT INTO owner_sessions (token_hash, address, created_at, expires_at)
              VALUES (${s.tokenHash}, ${s.address}, ${s.createdAt.toISOString()}, ${s.expiresAt.toISOString()})`.pipe(
            Effect.asVoid,
            storeUnavailable,
            Effect.withSpan("SessionRepo.insertSession")
          ),
        findSession: (tokenHash, now) =>
          sessionOwner({ tokenHash, now }).pipe(
            Effect.map(Option.map((r) => r.address)),
            storeDecoded,
            Effect.withSpan("SessionRepo.findSession")
          ),
        deleteSession: (tokenHash) =>
          deleted(sql`DELETE FROM owner_sessions WHERE token_hash = ${tokenHash} RETURNING 1`).pipe(
            storeDecoded,
            Effect.withSpan("SessionRepo.deleteSession")
          ),
        deleteSessionsOf: (address) =>
          deleted(sql`DELETE FROM owner_sessions WHERE address = ${address} RETURNING 1`).pipe(
            storeDecoded,
            Effect.withSpan("SessionRepo.deleteSessionsOf")
          ),
        deleteExpired: (now) =>
          Effect.all({
            challenges: deleted(sql`DELETE FROM auth_challenges WHERE expires_at <= ${now.toISOString()} RETURNING 1`),
            sessions: deleted(sql`DELETE FROM owner_sessions WHERE expires_at <= ${now.toISOString()} RETURNING 1`),
            internalHops: deleted(sql`DELETE FROM internal_hops WHERE expires_at <= ${now.toISOString()} RETURNING 1`)
          }).pipe(storeDecoded, Effect.withSpan("SessionRepo.deleteExpired")),
        useInternalHop: (mac, expiresAt, now) =>
          sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`DELETE FROM internal_hops WHERE expires_at <= ${now.toISOString()}`
              const rows = yield* sql`INSERT INTO internal_hops (mac, expires_at)
                  VALUES (${mac}, ${expiresAt.toISOString()}) ON CONFLICT DO NOTHING RETURNING mac`
              return rows.length === 1
            })
          ).pipe(storeUnavailable, Effect.withSpan("SessionRepo.useInternalHop"))
      })
    })
  )
}
