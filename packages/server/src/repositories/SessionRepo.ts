import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeUnavailable } from "../storage/StoreErrors.ts"

export interface StoredChallenge {
  readonly address: string
  readonly message: string
}

/** SQL for sign-in challenges, owner sessions and used internal-hop credentials. */
export class SessionRepo extends Context.Service<SessionRepo, {
  insertChallenge(c: { nonce: string; address: string; message: string; expiresAt: Date }): Effect.Effect<void, Unavailable>
  /** Marks the challenge used if it is unused and unexpired; at most one caller ever gets it. */
  consumeChallenge(nonce: string, now: Date): Effect.Effect<Option.Option<StoredChallenge>, Unavailable>
  insertSession(s: { tokenHash: string; address: string; createdAt: Date; expiresAt: Date }): Effect.Effect<void, Unavailable>
  findSession(tokenHash: string, now: Date): Effect.Effect<Option.Option<string>, Unavailable>
  /** Records a used internal-hop MAC; false when it was already used (a replay). */
  useInternalHop(mac: string, expiresAt: Date, now: Date): Effect.Effect<boolean, Unavailable>
}>()("@gateway/server/SessionRepo") {
  static readonly layer = Layer.effect(
    SessionRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return SessionRepo.of({
        insertChallenge: (c) =>
          sql`INSERT INTO auth_challenges (nonce, address, message, expires_at)
              VALUES (${c.nonce}, ${c.address}, ${c.message}, ${c.expiresAt.toISOString()})`.pipe(
            Effect.asVoid,
            storeUnavailable
          ),
        consumeChallenge: (nonce, now) =>
          sql<StoredChallenge>`UPDATE auth_challenges SET used_at = ${now.toISOString()}
              WHERE nonce = ${nonce} AND used_at IS NULL AND expires_at > ${now.toISOString()}
              RETURNING address, message`.pipe(
            Effect.map((rows) => Option.fromNullishOr(rows[0])),
            storeUnavailable
          ),
        insertSession: (s) =>
          sql`INSERT INTO owner_sessions (token_hash, address, created_at, expires_at)
              VALUES (${s.tokenHash}, ${s.address}, ${s.createdAt.toISOString()}, ${s.expiresAt.toISOString()})`.pipe(
            Effect.asVoid,
            storeUnavailable
          ),
        findSession: (tokenHash, now) =>
          sql<{ address: string }>`SELECT address FROM owner_sessions
              WHERE token_hash = ${tokenHash} AND expires_at > ${now.toISOString()}`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (r) => r.address)),
            storeUnavailable
          ),
        useInternalHop: (mac, expiresAt, now) =>
          sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`DELETE FROM internal_hops WHERE expires_at <= ${now.toISOString()}`
              const rows = yield* sql`INSERT INTO internal_hops (mac, expires_at)
                  VALUES (${mac}, ${expiresAt.toISOString()}) ON CONFLICT DO NOTHING RETURNING mac`
              return rows.length === 1
            })
          ).pipe(storeUnavailable)
      })
    })
  )
}
