import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { Taken } from "../limits/RateLimits.ts"
import { storeDecoded, storeUnavailable } from "../storage/Codecs.ts"
import { BuildRow, buildOf, takenOf } from "./ReservationRows.ts"
import type { Build, StoredBuild } from "./SponsorBuild.ts"

/** Advisory-lock namespace (any fixed key) for one owner's builds. */
const OWNER_BUILDS_LOCK = 7_412_014

/** The build reserved, if any, and what the owner's released build had taken. */
export interface Reservation {
  readonly reserved: Option.Option<Build>
  readonly released: ReadonlyArray<ReadonlyArray<Taken>>
}

const insertBuild = (sql: SqlClient.SqlClient, b: Build) =>
  sql`INSERT INTO sponsor_reservations
        (coin_id, coin_version, coin_digest, holder, purpose, state, digest, gas_budget, budget_taken, expires_at, expiration_epoch)
      VALUES (${b.coin.objectId}, ${b.coin.version}, ${b.coin.digest}, ${b.holder}, 'build', 'reserved', ${b.digest},
              ${b.gasBudget.toString()}, ${JSON.stringify(b.taken)}, ${b.expiresAtMs}, ${b.epoch.toString()})
      ON CONFLICT DO NOTHING RETURNING digest`

export const reserveBuild = (sql: SqlClient.SqlClient) => (owner: string, candidates: ReadonlyArray<Build>): Effect.Effect<Reservation, Unavailable> =>
  sql.withTransaction(
    Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(${OWNER_BUILDS_LOCK}::int, hashtext(${owner}))`
      const previous = yield* sql<{ readonly budgetTaken: unknown }>`
        DELETE FROM sponsor_reservations WHERE holder = ${owner} AND purpose = 'build' AND state = 'reserved'
        RETURNING budget_taken`
      const released = yield* takenOf(previous)
      for (const candidate of candidates) {
        const inserted = yield* insertBuild(sql, candidate)
        if (inserted.length === 1) return { reserved: Option.some(candidate), released }
      }
      return { reserved: Option.none<Build>(), released }
    })
  ).pipe(storeDecoded, Effect.withSpan("ReservationRepo.reserveBuild"))

export const releaseExpired = (sql: SqlClient.SqlClient) => (nowMs: number): Effect.Effect<ReadonlyArray<ReadonlyArray<Taken>>, Unavailable> =>
  sql<{ readonly budgetTaken: unknown }>`
    DELETE FROM sponsor_reservations WHERE state = 'reserved' AND expires_at <= ${nowMs} RETURNING budget_taken`.pipe(
    Effect.flatMap(takenOf),
    storeDecoded,
    Effect.withSpan("ReservationRepo.releaseExpired")
  )

export const findBuild = (sql: SqlClient.SqlClient) => {
  const byDigest = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: BuildRow,
    execute: (digest) =>
      sql`SELECT coin_id, coin_version, coin_digest, holder, digest, state, gas_budget, budget_taken, expires_at, expiration_epoch
          FROM sponsor_reservations WHERE digest = ${digest} AND purpose = 'build'`
  })
  return (digest: string): Effect.Effect<Option.Option<StoredBuild>, Unavailable> =>
    byDigest(digest).pipe(Effect.map(Option.map(buildOf)), storeDecoded, Effect.withSpan("ReservationRepo.findBuild"))
}

export const findReservedBuild = (sql: SqlClient.SqlClient) => {
  const byHolder = SqlSchema.findOneOption({
    Request: Schema.Struct({ holder: Schema.String, nowMs: Schema.Number }),
    Result: BuildRow,
    execute: ({ holder, nowMs }) =>
      sql`SELECT coin_id, coin_version, coin_digest, holder, digest, state, gas_budget, budget_taken, expires_at, expiration_epoch
          FROM sponsor_reservations WHERE holder = ${holder} AND purpose = 'build' AND state = 'reserved' AND expires_at > ${nowMs}`
  })
  return (holder: string, nowMs: number): Effect.Effect<Option.Option<StoredBuild>, Unavailable> =>
    byHolder({ holder, nowMs }).pipe(Effect.map(Option.map(buildOf)), storeDecoded, Effect.withSpan("ReservationRepo.findReservedBuild"))
}

export const claimForSigning = (sql: SqlClient.SqlClient) => (digest: string, owner: string, nowMs: number): Effect.Effect<boolean, Unavailable> =>
  sql`UPDATE sponsor_reservations SET state = 'signed'
      WHERE digest = ${digest} AND holder = ${owner} AND purpose = 'build' AND state = 'reserved' AND expires_at > ${nowMs}
      RETURNING digest`.pipe(
    Effect.map((rows) => rows.length === 1),
    storeUnavailable,
    Effect.withSpan("ReservationRepo.claimForSigning")
  )

export const releaseUnsigned = (sql: SqlClient.SqlClient) => (digest: string): Effect.Effect<boolean, Unavailable> =>
  sql`DELETE FROM sponsor_reservations WHERE digest = ${digest} AND state = 'reserved' RETURNING digest`.pipe(
    Effect.map((rows) => rows.length === 1),
    storeUnavailable,
    Effect.withSpan("ReservationRepo.releaseUnsigned")
  )

export const releaseExecuted = (sql: SqlClient.SqlClient) => (digest: string): Effect.Effect<boolean, Unavailable> =>
  sql`DELETE FROM sponsor_reservations WHERE digest = ${digest} AND state = 'signed' RETURNING digest`.pipe(
    Effect.map((rows) => rows.length === 1),
    storeUnavailable,
    Effect.withSpan("ReservationRepo.releaseExecuted")
  )
