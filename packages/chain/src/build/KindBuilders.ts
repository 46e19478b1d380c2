import { Effect, Option } from "effect"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { type NotFound, Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import type { Chain, PoolRef } from "../Chain.ts"
import * as Kinds from "./Kinds.ts"

/** What an adapter reads from its chain so the kinds can be built offline. */
export interface ChainReads {
  /** NOT_FOUND when the id names no shared object. */
  sharedRef(objectId: string): Effect.Effect<Kinds.SharedRef, Unavailable | NotFound>
  findPool(owner: string, coinType: string): Effect.Effect<Option.Option<PoolRef>, Unavailable>
  coins(owner: string, coinType: string): Effect.Effect<ReadonlyArray<Kinds.OwnedRef & { readonly balance: bigint }>, Unavailable>
  /** The shared refs and coin type a payment through this grant names. */
  payRefs(grantObjectId: string): Effect.Effect<{ readonly grant: Kinds.SharedRef; readonly pool: Kinds.SharedRef; readonly coinType: string }, Unavailable | NotFound>
}

const building = (build: () => Promise<Kinds.PreparedKind>) =>
  Effect.tryPromise({ try: build, catch: (error) => new Unavailable({ message: "The transaction could not be built", reason: String(error) }) })

type Builders = Pick<Chain["Service"], "buildCreateGrant" | "buildRevoke" | "buildPause" | "buildResume" | "buildFundPool" | "buildPay">

/** The build half of every `Chain` adapter: the same kinds, whichever chain the refs come from. */
export const kindBuilders = (packageId: string, reads: ChainReads): Builders => ({
  buildCreateGrant: (input) =>
    building(() =>
      Kinds.createPolicyGrant(packageId, {
        ...input,
        coinType: input.pool.coinType,
        pool: { objectId: input.pool.poolId, initialSharedVersion: input.pool.initialSharedVersion }
      })
    ),
  buildRevoke: (input) =>
    Effect.flatMap(reads.sharedRef(input.grantObjectId), (grant) => building(() => Kinds.revokeGrant(packageId, { sender: input.sender, grant }))),
  buildPause: (input) =>
    Effect.flatMap(reads.sharedRef(input.grantObjectId), (grant) =>
      building(() => Kinds.pauseGrant(packageId, { sender: input.sender, grant, kind: input.kind }))),
  buildResume: (input) =>
    Effect.flatMap(reads.sharedRef(input.grantObjectId), (grant) =>
      building(() => Kinds.resumeGrant(packageId, { sender: input.sender, grant, kind: input.kind }))),
  buildFundPool: (input) =>
    Effect.gen(function*() {
      const coinType = normalizeCoinType(input.coinType)
      const pool = yield* reads.findPool(input.sender, coinType)
      const coins = yield* reads.coins(input.sender, coinType)
      if (coinType !== normalizeCoinType(SUI_COIN_TYPE) && coins.reduce((a, c) => a + c.balance, 0n) < input.amount) {
        return yield* new UnsupportedAsset({ message: `You hold less than ${input.amount} of ${input.coinType}`, reason: "insufficient_coins_to_fund_pool" })
      }
      return yield* building(() =>
        Kinds.fundPool(packageId, {
          sender: input.sender,
          coinType,
          amount: input.amount,
          pool: Option.match(pool, {
            onNone: () => undefined,
            onSome: (p) => ({ objectId: p.poolId, initialSharedVersion: p.initialSharedVersion })
          }),
          coins
        })
      )
    }),
  buildPay: (input) => Effect.flatMap(reads.payRefs(input.grantObjectId), (refs) => building(() => Kinds.pay(packageId, { ...input, ...refs })))
})
