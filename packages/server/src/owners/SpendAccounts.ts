import { Context, Effect, Layer, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import { PreparedSpendAccount, SpendAccount } from "@gateway/domain/SpendAccount"
import type { SuiAddress } from "@gateway/domain/SuiAddress"

/** The owner's on-chain spend accounts (`Pool<T>`), read from final state, and the kind that funds one. */
export class SpendAccounts extends Context.Service<SpendAccounts, {
  list(owner: SuiAddress): Effect.Effect<ReadonlyArray<SpendAccount>, Unavailable>
  prepare(owner: SuiAddress, asset: string, amount: bigint): Effect.Effect<typeof PreparedSpendAccount.Type, Unavailable | UnsupportedAsset>
}>()("@gateway/server/SpendAccounts") {
  static readonly layer = Layer.effect(
    SpendAccounts,
    Effect.gen(function*() {
      const chain = yield* Chain
      return SpendAccounts.of({
        list: (owner) =>
          Effect.map(chain.listPools(owner), (pools) =>
            pools.map((p) =>
              Schema.decodeUnknownSync(SpendAccount)({ coinType: p.coinType, pool: p.poolId, registry: chain.pkg.registryId, balance: p.balance.toString() })
            )),
        prepare: (owner, asset, amount) =>
          Effect.map(chain.buildFundPool({ sender: owner, coinType: asset, amount }), (kind) =>
            Schema.decodeUnknownSync(PreparedSpendAccount)({ asset, moveTarget: kind.moveTarget, txKindBytes: kind.txKindBytes, sender: owner }))
      })
    })
  )
}
