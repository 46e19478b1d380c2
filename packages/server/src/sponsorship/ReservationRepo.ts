import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { HeldCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import type { GasCoinRef } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { Taken } from "../limits/RateLimits.ts"
import {
  claimForSigning,
  findBuild,
  findReservedBuild,
  releaseExecuted,
  releaseExpired,
  releaseUnsigned,
  type Reservation,
  reserveBuild
} from "./BuildReservations.ts"
import { claimMaintenance, dropSigned, heldCoins, type MaintenanceClaim, releaseMaintenance } from "./PoolReservations.ts"
import type { Build, StoredBuild } from "./SponsorBuild.ts"

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
  reserveBuild(owner: string, candidates: ReadonlyArray<Build>): Effect.Effect<Reservation, Unavailable>
  /** Deletes reserved builds and maintenance whose time is up; what each build had taken. */
  releaseExpired(nowMs: number): Effect.Effect<ReadonlyArray<ReadonlyArray<Taken>>, Unavailable>
  findBuild(digest: string): Effect.Effect<Option.Option<StoredBuild>, Unavailable>
  /** The holder's build still reserved and unexpired at `nowMs`, if any: asked for the same thing again, it is handed out again. */
  findReservedBuild(holder: string, nowMs: number): Effect.Effect<Option.Option<StoredBuild>, Unavailable>
  /** Marks the owner's build co-signed if it is still reserved and unexpired; at most one caller ever gets true. */
  claimForSigning(digest: string, owner: string, nowMs: number): Effect.Effect<boolean, Unavailable>
  /** Deletes a build not yet co-signed (refused before co-signing); true when there was one, so its budget goes back once. */
  releaseUnsigned(digest: string): Effect.Effect<boolean, Unavailable>
  /** Deletes a co-signed build once its effects are recorded: its coin has moved on to a new version. True when there was one. */
  releaseExecuted(digest: string): Effect.Effect<boolean, Unavailable>
  /** Every coin version held, reserved or co-signed (an expired reservation too, until `releaseExpired` deletes it). */
  readonly held: Effect.Effect<ReadonlyArray<HeldCoin>, Unavailable>
  /** Deletes co-signed rows that can no longer execute (the coin moved on, or the epoch passed). */
  dropSigned(coins: ReadonlyArray<{ readonly coinId: string; readonly coinVersion: string }>): Effect.Effect<void, Unavailable>
  /**
   * The leader's claim on `coins` for one maintenance transaction: only by the
   * replica that gets the advisory lock, only when no other maintenance is under
   * way, and only if every coin is free; otherwise nothing is claimed.
   */
  claimMaintenance(claim: MaintenanceClaim): Effect.Effect<boolean, Unavailable>
  releaseMaintenance(coins: ReadonlyArray<GasCoinRef>): Effect.Effect<void, Unavailable>
}>()("@gateway/server/ReservationRepo") {
  static readonly layer = Layer.effect(
    ReservationRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return ReservationRepo.of({
        reserveBuild: reserveBuild(sql),
        releaseExpired: releaseExpired(sql),
        findBuild: findBuild(sql),
        findReservedBuild: findReservedBuild(sql),
        claimForSigning: claimForSigning(sql),
        releaseUnsigned: releaseUnsigned(sql),
        releaseExecuted: releaseExecuted(sql),
        held: heldCoins(sql),
        dropSigned: dropSigned(sql),
        claimMaintenance: claimMaintenance(sql),
        releaseMaintenance: releaseMaintenance(sql)
      })
    })
  )
}
