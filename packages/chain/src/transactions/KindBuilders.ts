import { Effect, Option } from "effect"
import { normalizeCoinType, SUI_COIN_TYPE, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { type NotFound, Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import type { Chain, PoolRef } from "../Chain.ts"
import * as Kinds from "./Kinds.ts"

/** What an adapter reads from its chain so the kinds can be built offline. */
export interface ChainReads {
  /** NOT_FOUND when the id names no shared object. */
  sharedRef(objectId: string): Effect.Effect<Kinds.SharedRef, Unavailable | NotFound>
  /** The package's Registry, which `create_pool` takes. */
  readonly registryRef: Effect.Effect<Kinds.SharedRef, Unavailable>
  findPool(owner: string, coinType: string): Effect.Effect<Option.Option<PoolRef>, Unavailable>
  /** Every coin of the type the owner holds, to the last page. */
  coins(owner: string, coinType: string): Effect.Effect<ReadonlyArray<Kinds.OwnedRef & { readonly balance: bigint }>, Unavailable>
  /** What the owner holds of the type in its address balance (Sui's funds accumulator), apart from its coins. */
  addressBalance(owner: string, coinType: string): Effect.Effect<bigint, Unavailable>
  /** The shared refs and coin type a payment through this grant names. */
  payRefs(grantObjectId: string): Effect.Effect<{ readonly grant: Kinds.SharedRef; readonly pool: Kinds.SharedRef; readonly coinType: string }, Unavailable | NotFound>
}

const building = (build: () => Promise<Kinds.PreparedKind>) =>
  Effect.tryPromise({ try: build, catch: (error) => new Unavailable({ message: "The transaction could not be built", reason: String(error) }) })

type Builders = Pick<Chain["Service"], "buildCreateGrant" | "buildRevoke" | "buildPause" | "buildResume" | "buildFundPool" | "buildPay">

/** The build half of the `Chain` adapter: kinds built offline from refs the chain was read for. */
export const kindBuilders = (pkg: SpendAccountPackage, reads: ChainReads): Builders => {
  /** A grant call's refs: the grant, and the Registry every call names for its version. */
  const grantRefs = (grantObjectId: string) =>
    Effect.map(Effect.all([reads.sharedRef(grantObjectId), reads.registryRef]), ([grant, registry]) => ({ grant, registry }))
  return {
    buildCreateGrant: (input) =>
      Effect.flatMap(reads.registryRef, (registry) =>
        building(() =>
          Kinds.createPolicyGrant(pkg, {
            ...input,
            registry,
            coinType: input.pool.coinType,
            pool: { objectId: input.pool.poolId, initialSharedVersion: input.pool.initialSharedVersion }
          })
        )),
    buildRevoke: (input) =>
      Effect.flatMap(grantRefs(input.grantObjectId), (refs) => building(() => Kinds.revokeGrant(pkg, { sender: input.sender, ...refs }))),
    buildPause: (input) =>
      Effect.flatMap(grantRefs(input.grantObjectId), (refs) =>
        building(() => Kinds.pauseGrant(pkg, { sender: input.sender, ...refs, kind: input.kind }))),
    buildResume: (input) =>
      Effect.flatMap(grantRefs(input.grantObjectId), (refs) =>
        building(() => Kinds.resumeGrant(pkg, { sender: input.sender, ...refs, kind: input.kind }))),
    buildFundPool: (input) =>
      Effect.gen(function*() {
        const coinType = normalizeCoinType(input.coinType)
        const pool = yield* reads.findPool(input.sender, coinType)
        const registry = yield* reads.registryRef
        // The SDK's coinWithBalance takes the deposit from coins and the address balance alike. SUI comes from the
        // gas coin (the wallet picks its coins) unless the address balance covers it, so only other assets need coins.
        const [coins, addressBalance] = yield* Effect.all([
          coinType === normalizeCoinType(SUI_COIN_TYPE) ? Effect.succeed([]) : reads.coins(input.sender, coinType),
          reads.addressBalance(input.sender, coinType)
        ], { concurrency: 2 })
        if (coinType !== normalizeCoinType(SUI_COIN_TYPE) && coins.reduce((a, c) => a + c.balance, 0n) + addressBalance < input.amount) {
          return yield* new UnsupportedAsset({ message: `You hold less than ${input.amount} of ${input.coinType}`, reason: "insufficient_coins_to_fund_pool" })
        }
        return yield* building(() =>
          Kinds.fundPool(pkg, {
            sender: input.sender,
            coinType,
            amount: input.amount,
            registry,
            pool: Option.match(pool, {
              onNone: () => undefined,
              onSome: (p) => ({ objectId: p.poolId, initialSharedVersion: p.initialSharedVersion })
            }),
            coins: [],
            funds: { coins, addressBalance }
          })
        )
      }),
    buildPay: (input) =>
      Effect.flatMap(Effect.all([reads.payRefs(input.grantObjectId), reads.registryRef]), ([refs, registry]) =>
        building(() => Kinds.pay(pkg, { ...input, ...refs, registry })))
  }
}
