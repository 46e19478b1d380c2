import { Context, Duration, Effect, Exit } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import { type SponsorFunds, sponsorFunds } from "@gateway/domain/sponsorship/BalanceFloor"
import { AppConfig } from "../Config.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { unavailable } from "./SponsorErrors.ts"
import { recordSponsorFunds } from "../observability/SponsorMetrics.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** How long one reading of the sponsor's coins stands: the gas station and `/health` do not read the chain per request. */
const READING_TTL = Duration.seconds(5)

/**
 * The sponsor's SUI (all its coins, as the pool sees them) against `SPONSOR_BALANCE_FLOOR_MIST`, read at most
 * every `READING_TTL` on this replica; a failed reading is not kept, so the next request reads again.
 */
export class SponsorBalance extends Context.Service<SponsorBalance, {
  readonly funds: Effect.Effect<SponsorFunds, Unavailable>
  /** Fails with 503 `sponsor_balance_below_floor` when the sponsor holds less than the floor. */
  readonly aboveFloor: Effect.Effect<void, Unavailable>
}>()("@gateway/server/SponsorBalance") {
  static readonly make = Effect.gen(function*() {
    const config = yield* AppConfig
    const node = yield* SponsorNode
    const { address } = yield* SponsorAccount
    const floor = BigInt(config.sponsorBalanceFloorMist)
    const read = node.coins(address).pipe(
      Effect.tap(recordSponsorFunds),
      Effect.map((coins) => sponsorFunds(coins.reduce((sum, c) => sum + c.balance, 0n), floor))
    )
    const funds = yield* Effect.cachedWithTTL(read, (exit) => (Exit.isSuccess(exit) ? READING_TTL : Duration.zero))
    const aboveFloor = Effect.flatMap(funds, (f) =>
      f.status === "ok"
        ? Effect.void
        : Effect.fail(unavailable(
          `The gateway's gas sponsor holds less than SPONSOR_BALANCE_FLOOR_MIST (${f.floorMist} MIST) and sponsors no payments until its operator funds it: pay gas from the payer's own coins`,
          "sponsor_balance_below_floor"
        )))
    return SponsorBalance.of({ funds, aboveFloor })
  })
}
