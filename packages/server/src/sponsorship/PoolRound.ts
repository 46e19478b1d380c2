import { Clock, Effect } from "effect"
import { planPool, type PoolShape, sortHolds } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { AppConfig } from "../Config.ts"
import { maintain } from "./PoolMaintenance.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorNode } from "./SponsorNode.ts"

/**
 * One maintenance round: lets go of co-signed coin versions that can never
 * execute, then, if the pool needs it and this replica wins the leader's
 * claim, one maintenance transaction; true when it succeeded. A failure
 * (chain or store down) is logged and the next round tries again.
 */
export const poolRound = (shape: PoolShape) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const node = yield* SponsorNode
    const repo = yield* ReservationRepo
    const { address: sponsor } = yield* SponsorAccount
    const nowMs = yield* Clock.currentTimeMillis
    const { epoch, referenceGasPrice } = yield* node.epoch
    const coins = yield* node.coins(sponsor)
    const held = yield* repo.held
    const { dead, stillHeld } = sortHolds(coins, held, epoch)
    if (dead.length > 0) yield* repo.dropSigned(dead)
    const plan = planPool(coins, stillHeld, shape)
    if (plan === undefined) return false
    const touched = [plan.source, ...plan.merge]
    const claimed = yield* repo.claimMaintenance({ sponsor, coins: touched, nowMs, expiresAtMs: nowMs + config.sponsorReservationMs, epoch })
    if (!claimed) return false
    return yield* maintain(plan, shape, epoch, referenceGasPrice).pipe(Effect.ensuring(Effect.ignore(repo.releaseMaintenance(touched))))
  }).pipe(
    Effect.catch((error) => Effect.as(Effect.logWarning("sponsor pool round failed", error), false)),
    Effect.withSpan("CoinPool.round")
  )
