import { Context, Duration, Effect, Schedule, Semaphore } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import type { BuildCandidates, PoolShape } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { AppConfig } from "../Config.ts"
import { poolCandidates } from "./PoolCandidates.ts"
import { poolRound } from "./PoolRound.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { fundFromFaucet } from "./SponsorFunding.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** How often every replica tries for a maintenance round; only the one that wins the leader's lock does it. */
const ROUND_INTERVAL = Duration.seconds(30)

/** A maintenance transaction may budget this many times a sponsored one: splitting many coins stores many objects. */
const MAINTENANCE_BUDGET_FACTOR = 10n

/** Rounds right after start-up (in the background), until the pool is as full as the funds allow. */
const STARTUP_ROUNDS = 8

/** What the pool's rounds and candidates take from their context. */
type PoolServices = AppConfig | SponsorNode | ReservationRepo | SponsorAccount

/**
 * The sponsor's pool of gas coins. Builds take the free coins (`candidates`);
 * one leader at a time (the replica whose maintenance claim wins an advisory
 * lock, `ReservationRepo.claimMaintenance`) splits the largest free coin into
 * `SPONSOR_POOL_COINS` coins of `SPONSOR_COIN_MIST` and merges free dust back
 * into it, every `ROUND_INTERVAL` and whenever a build sees the pool run low,
 * so owners holding builds never leave the others without a coin. A round
 * also stops holding co-signed coin versions that can no longer execute.
 */
export class CoinPool extends Context.Service<CoinPool, {
  candidates(budget: bigint): Effect.Effect<BuildCandidates, Unavailable>
  /** A round now, after any under way on this replica (if this replica leads); true when it maintained the pool. */
  readonly roundNow: Effect.Effect<boolean>
  /** A round in the background, unless one is under way on this replica. */
  readonly refill: Effect.Effect<void>
}>()("@gateway/server/CoinPool") {
  /** The `SponsorAccount`'s pool, funded from the faucet in local mode and maintained for as long as the scope lasts. */
  static readonly make = Effect.gen(function*() {
    const config = yield* AppConfig
    const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)
    const shape: PoolShape = {
      coins: config.sponsorPoolCoins,
      coinMist: BigInt(config.sponsorCoinMist),
      dustBelow: gasBudgetMax,
      gasReserve: MAINTENANCE_BUDGET_FACTOR * gasBudgetMax
    }
    if (shape.coinMist < gasBudgetMax) {
      return yield* Effect.die(new Error("SPONSOR_COIN_MIST must be at least SPONSOR_GAS_BUDGET_MAX: a smaller coin cannot pay a sponsored budget"))
    }
    const services = Context.pick(AppConfig, SponsorNode, ReservationRepo, SponsorAccount)(yield* Effect.context<PoolServices>())
    const round = Effect.provideContext(poolRound(shape), services)

    // One round at a time on this replica; the store's lock keeps replicas apart.
    const lock = yield* Semaphore.make(1)
    const roundNow = lock.withPermits(1)(round)
    const refill = Effect.asVoid(Effect.forkIn(lock.withPermitsIfAvailable(1)(round), yield* Effect.scope))

    yield* fundFromFaucet
    // Filled in the background, so a start never waits on the chain; a build that finds no coin runs a round itself.
    const fill = Effect.gen(function*() {
      for (let i = 0; i < STARTUP_ROUNDS; i++) {
        if (!(yield* roundNow)) break
      }
    })
    yield* Effect.forkScoped(fill.pipe(Effect.andThen(Effect.repeat(lock.withPermitsIfAvailable(1)(round), Schedule.spaced(ROUND_INTERVAL)))))

    return CoinPool.of({ candidates: (budget) => Effect.provideContext(poolCandidates(shape, budget), services), roundNow, refill })
  })
}
