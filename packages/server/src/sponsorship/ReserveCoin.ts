import { Clock, Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import type { PoolCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { type SponsoredGas, sponsoredTransactionData } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import { AppConfig } from "../Config.ts"
import type { Taken } from "../limits/RateLimits.ts"
import { CoinPool } from "./CoinPool.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import type { Build } from "./SponsorBuild.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { unavailable } from "./SponsorErrors.ts"

/** Candidate coins one build tries (a fresh build's bytes for each): enough to get past replicas racing for the same ones. */
const CANDIDATES_PER_BUILD = 8

/**
 * Reserves a free coin for this holder's build (releasing the holder's previous one); the build's bytes are made
 * for that coin. The holder is an owner's address, or a payer's payment (`PaymentHolder`).
 */
export const reserveCoin = Effect.fnUntraced(function*(owner: string, kindBytes: Uint8Array, gas: Omit<SponsoredGas, "coin">, taken: ReadonlyArray<Taken>) {
  const config = yield* AppConfig
  const repo = yield* ReservationRepo
  const budgets = yield* SponsorBudgets
  const pool = yield* CoinPool
  const expiresAtMs = (yield* Clock.currentTimeMillis) + config.sponsorReservationMs
  const buildFor = (coin: PoolCoin): Build => {
    const bytes = sponsoredTransactionData(kindBytes, { ...gas, coin })
    return {
      coin: { objectId: coin.objectId, version: coin.version, digest: coin.digest },
      holder: owner,
      digest: TransactionDataBuilder.getDigestFromBytes(bytes),
      gasBudget: gas.budget,
      taken,
      expiresAtMs,
      epoch: gas.epoch
    }
  }
  const attempt = Effect.gen(function*() {
    const { coins, runsLow, funded } = yield* pool.candidates(gas.budget)
    const { reserved, released } = yield* repo.reserveBuild(owner, coins.slice(0, CANDIDATES_PER_BUILD).map(buildFor))
    yield* Effect.forEach(released, budgets.giveBackAll, { discard: true })
    // Running low: a round in the background, so the next builds find coins.
    if (runsLow && Option.isSome(reserved)) yield* pool.refill
    return { reserved, funded }
  })
  const first = yield* attempt
  // No coin free: a round of the pool now (if this replica leads) and one more try.
  const { reserved, funded } = Option.isSome(first.reserved) ? first : yield* Effect.andThen(pool.roundNow, attempt)
  if (Option.isSome(reserved)) return reserved.value
  return yield* unavailable(
    "The sponsor has no gas free right now: try again shortly, or pay gas from your own wallet",
    funded ? "sponsor_busy" : "sponsor_unfunded"
  )
})
