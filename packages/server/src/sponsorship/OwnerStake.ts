import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { Chain } from "@gateway/chain/Chain"
import type { Unavailable } from "@gateway/domain/Errors"
import { type Standing, standingOf } from "@gateway/domain/sponsorship/SponsorAllowance"
import { Count, storeDecoded } from "../storage/Codecs.ts"

/**
 * Whether an owner has anything at stake (the rule: `standingOf`): its spend
 * accounts as the chain reports them, and its live services as the catalog's
 * table holds them (read only, one count).
 */
export class OwnerStake extends Context.Service<OwnerStake, {
  standing(owner: string): Effect.Effect<Standing, Unavailable>
}>()("@gateway/server/OwnerStake") {
  static readonly layer = Layer.effect(
    OwnerStake,
    Effect.gen(function*() {
      const chain = yield* Chain
      const sql = yield* SqlClient.SqlClient
      const liveServices = SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ n: Count }),
        execute: (owner) => sql`SELECT count(*) AS n FROM services WHERE owner_address = ${owner} AND status = 'live'`
      })
      const standing = (owner: string) =>
        Effect.all({ pools: chain.listPools(owner), live: storeDecoded(liveServices(owner)) }, { concurrency: 2 }).pipe(
          Effect.map(({ pools, live }) => standingOf({ poolBalances: pools.map((p) => p.balance), liveServices: live.n })),
          Effect.withSpan("OwnerStake.standing")
        )
      return OwnerStake.of({ standing })
    })
  )
}
