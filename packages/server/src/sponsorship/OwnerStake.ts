import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Unavailable } from "@gateway/domain/Errors"
import { type Standing, standingOf } from "@gateway/domain/sponsorship/SponsorAllowance"
import { CatalogRepo } from "../catalog/CatalogRepo.ts"

/**
 * Whether an owner has anything at stake (the rule: `standingOf`): its spend
 * accounts as the chain reports them, and its live services in the catalog.
 */
export class OwnerStake extends Context.Service<OwnerStake, {
  standing(owner: string): Effect.Effect<Standing, Unavailable>
}>()("@gateway/server/OwnerStake") {
  static readonly layer = Layer.effect(
    OwnerStake,
    Effect.gen(function*() {
      const chain = yield* Chain
      const catalog = yield* CatalogRepo
      const standing = (owner: string) =>
        Effect.all({ pools: chain.listPools(owner), live: catalog.countLive(owner) }, { concurrency: 2 }).pipe(
          Effect.map(({ pools, live }) => standingOf({ poolBalances: pools.map((p) => p.balance), liveServices: live })),
          Effect.withSpan("OwnerStake.standing")
        )
      return OwnerStake.of({ standing })
    })
  )
}
