import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { GasCoinRef } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { Taken } from "../limits/RateLimits.ts"
import { BigIntColumn, Count, storeDecoded, storeUnavailable } from "../storage/Codecs.ts"

/** Advisory-lock namespaces (any fixed keys): one owner's builds, and the pool's one leader. */
const OWNER_BUILDS_LOCK = 7_412_014
const POOL_LEADER_LOCK = 7_412_015

/** A sponsored transaction the gateway built, holding its one gas coin until `expiresAtMs`. */
export interface Build {
  readonly coin: GasCoinRef
  /** The owner it was built for: its sender. */
  readonly holder: string
  readonly digest: string
  readonly gasBudget: bigint
  /** The budget windows `gasBudget` was taken from, so what is not spent goes back to them. */
  readonly taken: ReadonlyArray<Taken>
  readonly expiresAtMs: number
  readonly epoch: bigint
}

export interface StoredBuild extends Build {
  readonly state: "reserved" | "signed"
}

/** A coin version somebody holds: a build or maintenance, reserved or co-signed. */
export interface HeldCoin {
  readonly coinId: string
  readonly coinVersion: string
  readonly state: "reserved" | "signed"
  readonly epoch: bigint
}

/** The leader's coins turned out taken by a build meanwhile: the claim is rolled back. */
class MaintenanceRaced extends Data.TaggedError("MaintenanceRaced") {}

const TakenJson = Schema.fromJsonString(Schema.Array(Schema.Struct({ bucket: Schema.String, startMs: Schema.Number, amount: Schema.Number })))
const State = Schema.Literals(["reserved", "signed"])

const BuildRow = Schema.Struct({
  coinId: Schema.String,
  coinVersion: Schema.String,
  coinDigest: Schema.String,
  holder: Schema.String,
  digest: Schema.String,
  state: State,
  gasBudget: BigIntColumn,
  budgetTaken: TakenJson,
  expiresAt: Count,
  expirationEpoch: BigIntColumn
})

const toBuild = (row: typeof BuildRow.Type): StoredBuild => ({
  coin: { objectId: row.coinId, version: row.coinVersion, digest: row.coinDigest },
  holder: row.holder,
  digest: row.digest,
  state: row.state,
  gasBudget: row.gasBudget,
  taken: row.budgetTaken,
  expiresAtMs: row.expiresAt,
  epoch: row.expirationEpoch
})

/**
 * SQL for the sponsor's coin reservations and builds (migration 0014): a
 * coin version is held by at most one row (the primary key), an owner by at
 * most one reserved build (a partial unique index), and the pool by at most
 * one leader's maintenance at a time (an advisory lock around its claim).
 */
export class ReservationRepo extends Context.Service<ReservationRepo, {
  /**
   * Releases the owner's reserved build, if any, then reserves the first of
   * `candidates` (one build per candidate coin) whose coin version nobody
   * holds; all in one transaction under a per-owner lock. Returns the build
   * reserved, if any, and what the released one had taken.
   */
  reserveBuild(owner: string, candidates: ReadonlyArray<Build>): Effect.Effect<{
    readonly reserved: Option.Option<Build>
    readonly released: ReadonlyArray<ReadonlyArray<Taken>>
  }, Unavailable>
  /** Deletes reserved builds and maintenance whose time is up; what each build had taken. */
  releaseExpired(nowMs: number): Effect.Effect<ReadonlyArray<ReadonlyArray<Taken>>, Unavailable>
  findBuild(digest: string): Effect.Effect<Option.Option<StoredBuild>, Unavailable>
  /** Marks the owner's build co-signed if it is still reserved and unexpired; at most one caller ever gets true. */
  claimForSigning(digest: string, owner: string, nowMs: number): Effect.Effect<boolean, Unavailable>
  /** Deletes a build not yet co-signed (refused before co-signing); true when there was one, so its budget goes back once. */
  releaseUnsigned(digest: string): Effect.Effect<boolean, Unavailable>
  /** Deletes a co-signed build once its effects are recorded: its coin has moved on to a new version. */
  releaseExecuted(digest: string): Effect.Effect<void, Unavailable>
  /** Every coin version held, reserved or co-signed (an expired reservation too, until `releaseExpired` deletes it). */
  readonly held: Effect.Effect<ReadonlyArray<HeldCoin>, Unavailable>
  /** Deletes co-signed rows that can no longer execute (the coin moved on, or the epoch passed). */
  dropSigned(coins: ReadonlyArray<{ readonly coinId: string; readonly coinVersion: string }>): Effect.Effect<void, Unavailable>
  /**
   * The leader's claim on `coins` for one maintenance transaction: only by the
   * replica that gets the advisory lock, only when no other maintenance is under
   * way, and only if every coin is free; otherwise nothing is claimed.
   */
  claimMaintenance(input: {
    readonly sponsor: string
    readonly coins: ReadonlyArray<GasCoinRef>
    readonly nowMs: number
    readonly expiresAtMs: number
    readonly epoch: bigint
  }): Effect.Effect<boolean, Unavailable>
  releaseMaintenance(coins: ReadonlyArray<GasCoinRef>): Effect.Effect<void, Unavailable>
}>()("@gateway/server/ReservationRepo") {
  static readonly layer = Layer.effect(
    ReservationRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const insertBuild = (b: Build) =>
        sql`INSERT INTO sponsor_reservations
              (coin_id, coin_version, coin_digest, holder, purpose, state, digest, gas_budget, budget_taken, expires_at, expiration_epoch)
            VALUES (${b.coin.objectId}, ${b.coin.version}, ${b.coin.digest}, ${b.holder}, 'build', 'reserved', ${b.digest},
                    ${b.gasBudget.toString()}, ${JSON.stringify(b.taken)}, ${b.expiresAtMs}, ${b.epoch.toString()})
            ON CONFLICT DO NOTHING RETURNING digest`

      const takenOf = (rows: ReadonlyArray<{ readonly budgetTaken: unknown }>) =>
        Effect.forEach(rows, (row) => Schema.decodeUnknownEffect(TakenJson)(row.budgetTaken))

      const buildByDigest = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: BuildRow,
        execute: (digest) =>
          sql`SELECT coin_id, coin_version, coin_digest, holder, digest, state, gas_budget, budget_taken, expires_at, expiration_epoch
              FROM sponsor_reservations WHERE digest = ${digest} AND purpose = 'build'`
      })

      const heldRows = SqlSchema.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({ coinId: Schema.String, coinVersion: Schema.String, state: State, expirationEpoch: BigIntColumn }),
        execute: () => sql`SELECT coin_id, coin_version, state, expiration_epoch FROM sponsor_reservations`
      })

      return ReservationRepo.of({
        reserveBuild: (owner, candidates) =>
          sql.withTransaction(
            Effect.gen(function*() {
              yield* sql`SELECT pg_advisory_xact_lock(${OWNER_BUILDS_LOCK}::int, hashtext(${owner}))`
              const previous = yield* sql<{ readonly budgetTaken: unknown }>`
                DELETE FROM sponsor_reservations WHERE holder = ${owner} AND purpose = 'build' AND state = 'reserved'
                RETURNING budget_taken`
              const released = yield* takenOf(previous)
              for (const candidate of candidates) {
                const inserted = yield* insertBuild(candidate)
                if (inserted.length === 1) return { reserved: Option.some(candidate), released }
              }
              return { reserved: Option.none<Build>(), released }
            })
          ).pipe(storeDecoded, Effect.withSpan("ReservationRepo.reserveBuild")),

        releaseExpired: (nowMs) =>
          sql<{ readonly budgetTaken: unknown }>`
            DELETE FROM sponsor_reservations WHERE state = 'reserved' AND expires_at <= ${nowMs} RETURNING budget_taken`.pipe(
            Effect.flatMap(takenOf),
            storeDecoded,
            Effect.withSpan("ReservationRepo.releaseExpired")
          ),

        findBuild: (digest) => buildByDigest(digest).pipe(Effect.map(Option.map(toBuild)), storeDecoded, Effect.withSpan("ReservationRepo.findBuild")),

        claimForSigning: (digest, owner, nowMs) =>
          sql`UPDATE sponsor_reservations SET state = 'signed'
              WHERE digest = ${digest} AND holder = ${owner} AND purpose = 'build' AND state = 'reserved' AND expires_at > ${nowMs}
              RETURNING digest`.pipe(
            Effect.map((rows) => rows.length === 1),
            storeUnavailable,
            Effect.withSpan("ReservationRepo.claimForSigning")
          ),

        releaseUnsigned: (digest) =>
          sql`DELETE FROM sponsor_reservations WHERE digest = ${digest} AND state = 'reserved' RETURNING digest`.pipe(
            Effect.map((rows) => rows.length === 1),
            storeUnavailable,
            Effect.withSpan("ReservationRepo.releaseUnsigned")
          ),

        releaseExecuted: (digest) =>
          sql`DELETE FROM sponsor_reservations WHERE digest = ${digest} AND state = 'signed'`.pipe(
            Effect.asVoid,
            storeUnavailable,
            Effect.withSpan("ReservationRepo.releaseExecuted")
          ),

        held: heldRows(undefined).pipe(
            Effect.map((rows) =>
              rows.map((r): HeldCoin => ({ coinId: r.coinId, coinVersion: r.coinVersion, state: r.state, epoch: r.expirationEpoch }))
            ),
            storeDecoded,
            Effect.withSpan("ReservationRepo.held")
          ),

        dropSigned: (coins) =>
          Effect.forEach(coins, (c) =>
            sql`DELETE FROM sponsor_reservations WHERE coin_id = ${c.coinId} AND coin_version = ${c.coinVersion} AND state = 'signed'`, {
            discard: true
          }).pipe(storeUnavailable, Effect.withSpan("ReservationRepo.dropSigned")),

        claimMaintenance: ({ sponsor, coins, nowMs, expiresAtMs, epoch }) =>
          sql.withTransaction(
            Effect.gen(function*() {
              // Per schema, so test schemas sharing one PostgreSQL do not contend.
              const [lock] = yield* sql<{ readonly leader: unknown }>`
                SELECT pg_try_advisory_xact_lock(${POOL_LEADER_LOCK}::int, hashtext(current_schema())) AS leader`
              if (lock?.leader !== true) return false
              const busy = yield* sql`SELECT 1 FROM sponsor_reservations WHERE purpose = 'maintenance' AND expires_at > ${nowMs} LIMIT 1`
              if (busy.length > 0) return false
              for (const coin of coins) {
                const inserted = yield* sql`INSERT INTO sponsor_reservations
                    (coin_id, coin_version, coin_digest, holder, purpose, state, digest, gas_budget, budget_taken, expires_at, expiration_epoch)
                  VALUES (${coin.objectId}, ${coin.version}, ${coin.digest}, ${sponsor}, 'maintenance', 'reserved', NULL, 0, '[]', ${expiresAtMs},
                          ${epoch.toString()})
                  ON CONFLICT DO NOTHING RETURNING coin_id`
                if (inserted.length === 0) return yield* new MaintenanceRaced()
              }
              return true
            })
          ).pipe(
            Effect.catchTag("MaintenanceRaced", () => Effect.succeed(false)),
            storeUnavailable,
            Effect.withSpan("ReservationRepo.claimMaintenance")
          ),

        releaseMaintenance: (coins) =>
          Effect.forEach(coins, (c) =>
            sql`DELETE FROM sponsor_reservations
                WHERE coin_id = ${c.objectId} AND coin_version = ${c.version} AND purpose = 'maintenance'`, { discard: true }).pipe(
            storeUnavailable,
            Effect.withSpan("ReservationRepo.releaseMaintenance")
          )
      })
    })
  )
}
