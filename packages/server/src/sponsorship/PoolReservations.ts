import { Data, Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { HeldCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import type { GasCoinRef } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import { storeDecoded, storeUnavailable } from "../storage/Codecs.ts"
import { HeldRow, heldOf } from "./ReservationRows.ts"

/** Advisory-lock namespace (any fixed key) for the pool's one leader. */
const POOL_LEADER_LOCK = 7_412_015

/** The leader's coins turned out taken by a build meanwhile: the claim is rolled back. */
class MaintenanceRaced extends Data.TaggedError("MaintenanceRaced") {}

/** One maintenance transaction's claim on the sponsor's coins, until `expiresAtMs`. */
export interface MaintenanceClaim {
  readonly sponsor: string
  readonly coins: ReadonlyArray<GasCoinRef>
  readonly nowMs: number
  readonly expiresAtMs: number
  readonly epoch: bigint
}

export const heldCoins = (sql: SqlClient.SqlClient): Effect.Effect<ReadonlyArray<HeldCoin>, Unavailable> =>
  SqlSchema.findAll({
    Request: Schema.Void,
    Result: HeldRow,
    execute: () => sql`SELECT coin_id, coin_version, state, expiration_epoch FROM sponsor_reservations`
  })(undefined).pipe(Effect.map((rows) => rows.map(heldOf)), storeDecoded, Effect.withSpan("ReservationRepo.held"))

export const dropSigned = (sql: SqlClient.SqlClient) =>
(coins: ReadonlyArray<{ readonly coinId: string; readonly coinVersion: string }>): Effect.Effect<void, Unavailable> =>
  Effect.forEach(coins, (c) =>
    sql`DELETE FROM sponsor_reservations WHERE coin_id = ${c.coinId} AND coin_version = ${c.coinVersion} AND state = 'signed'`, {
    discard: true
  }).pipe(storeUnavailable, Effect.withSpan("ReservationRepo.dropSigned"))

const insertMaintenance = (sql: SqlClient.SqlClient, claim: MaintenanceClaim, coin: GasCoinRef) =>
  sql`INSERT INTO sponsor_reservations
        (coin_id, coin_version, coin_digest, holder, purpose, state, digest, gas_budget, budget_taken, expires_at, expiration_epoch)
      VALUES (${coin.objectId}, ${coin.version}, ${coin.digest}, ${claim.sponsor}, 'maintenance', 'reserved', NULL, 0, '[]', ${claim.expiresAtMs},
              ${claim.epoch.toString()})
      ON CONFLICT DO NOTHING RETURNING coin_id`

export const claimMaintenance = (sql: SqlClient.SqlClient) => (claim: MaintenanceClaim): Effect.Effect<boolean, Unavailable> =>
  sql.withTransaction(
    Effect.gen(function*() {
      // Per schema, so test schemas sharing one PostgreSQL do not contend.
      const [lock] = yield* sql<{ readonly leader: unknown }>`
        SELECT pg_try_advisory_xact_lock(${POOL_LEADER_LOCK}::int, hashtext(current_schema())) AS leader`
      if (lock?.leader !== true) return false
      const busy = yield* sql`SELECT 1 FROM sponsor_reservations WHERE purpose = 'maintenance' AND expires_at > ${claim.nowMs} LIMIT 1`
      if (busy.length > 0) return false
      for (const coin of claim.coins) {
        const inserted = yield* insertMaintenance(sql, claim, coin)
        if (inserted.length === 0) return yield* new MaintenanceRaced()
      }
      return true
    })
  ).pipe(
    Effect.catchTag("MaintenanceRaced", () => Effect.succeed(false)),
    storeUnavailable,
    Effect.withSpan("ReservationRepo.claimMaintenance")
  )

export const releaseMaintenance = (sql: SqlClient.SqlClient) => (coins: ReadonlyArray<GasCoinRef>): Effect.Effect<void, Unavailable> =>
  Effect.forEach(coins, (c) =>
    sql`DELETE FROM sponsor_reservations
        WHERE coin_id = ${c.objectId} AND coin_version = ${c.version} AND purpose = 'maintenance'`, { discard: true }).pipe(
    storeUnavailable,
    Effect.withSpan("ReservationRepo.releaseMaintenance")
  )
