import { normalizeSuiAddress } from "@mysten/sui/utils"
import { Context, Effect, Layer, Option } from "effect"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { type NotFinal, NotFound, type Unavailable, type UnsupportedAsset } from "@gateway/domain/Errors"
import { kindBuilders } from "./build/KindBuilders.ts"
import type * as Kinds from "./build/Kinds.ts"
import type { LedgerObject } from "./local/LedgerObject.ts"
import { LocalLedger } from "./local/LocalLedger.ts"

/** An owner's `Pool<T>` as the chain reports it (final state only). */
export interface PoolRef {
  readonly poolId: string
  readonly owner: string
  readonly coinType: string
  readonly balance: bigint
  readonly initialSharedVersion: bigint
}

export type PreparedKind = Kinds.PreparedKind

/**
 * What the gateway asks of the chain: find pools, build transaction kinds for
 * the owner or agent to sign, and fetch executed transactions for the
 * verifiers. Judging a transaction is not the chain's job.
 */
export class Chain extends Context.Service<Chain, {
  /** `sui:<network>`. */
  readonly network: string
  readonly packageId: string
  readonly health: Effect.Effect<void, Unavailable>
  findPool(owner: string, coinType: string): Effect.Effect<Option.Option<PoolRef>, Unavailable>
  listPools(owner: string): Effect.Effect<ReadonlyArray<PoolRef>, Unavailable>
  buildCreateGrant(input: {
    readonly sender: string
    readonly pool: PoolRef
    readonly delegate: string
    readonly sessionCap: bigint
    readonly maxPerPayment: bigint
    readonly expiryMs: bigint
    readonly policyIds: ReadonlyArray<bigint>
  }): Effect.Effect<PreparedKind, Unavailable>
  /** A grant id that names no shared Grant on chain is NOT_FOUND, as in every builder and `sharedVersion`. */
  buildRevoke(input: { readonly sender: string; readonly grantObjectId: string }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildPause(input: { readonly sender: string; readonly grantObjectId: string; readonly kind: number }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildResume(input: { readonly sender: string; readonly grantObjectId: string; readonly kind: number }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildFundPool(input: { readonly sender: string; readonly coinType: string; readonly amount: bigint }): Effect.Effect<PreparedKind, Unavailable | UnsupportedAsset>
  buildPay(input: {
    readonly sender: string
    readonly grantObjectId: string
    readonly amount: bigint
    readonly recipient: string
    readonly memo: Uint8Array
  }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  getTransaction(digest: string): Effect.Effect<ChainTransaction, NotFinal | Unavailable>
  /** The initial shared version of a shared object, which offline builders need. */
  sharedVersion(objectId: string): Effect.Effect<bigint, Unavailable | NotFound>
}>()("@gateway/chain/Chain") {
  /** The chain as the in-process LocalLedger serves it. */
  static readonly layerLocal = Layer.effect(
    Chain,
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const { packageId } = ledger.config
      const toPool = (o: LedgerObject): Option.Option<PoolRef> =>
        o.data._tag === "Pool" && o.owner._tag === "Shared"
          ? Option.some({
            poolId: o.id,
            owner: o.data.owner,
            coinType: o.data.coinType,
            balance: o.data.balance,
            initialSharedVersion: o.owner.initialSharedVersion
          })
          : Option.none()

      const listPools = (owner: string) =>
        Effect.map(ledger.finalSharedObjects, (objects) =>
          objects.flatMap((o) => Option.toArray(toPool(o))).filter((p) => p.owner === normalizeSuiAddress(owner)))

      const findPool = (owner: string, coinType: string) =>
        Effect.map(listPools(owner), (pools) => Option.fromNullishOr(pools.find((p) => p.coinType === normalizeCoinType(coinType))))

      // The caller named an object the chain does not hold (as it must be): its mistake, not an outage.
      const sharedRef = (objectId: string) =>
        Effect.flatMap(ledger.getObject(objectId), (found) =>
          Option.isSome(found) && found.value.owner._tag === "Shared"
            ? Effect.succeed({ objectId: found.value.id, initialSharedVersion: found.value.owner.initialSharedVersion })
            : Effect.fail(new NotFound({ message: "The object is not on chain", reason: `object ${objectId} is not a shared object` })))

      return Chain.of({
        network: `sui:${ledger.config.network}`,
        packageId,
        health: Effect.asVoid(ledger.latestCheckpoint),
        findPool,
        listPools,
        ...kindBuilders(packageId, {
          sharedRef,
          findPool,
          coins: (owner, coinType) =>
            Effect.map(ledger.ownedObjects(owner), (objects) =>
              objects.flatMap((o) =>
                o.data._tag === "Coin" && o.data.coinType === coinType
                  ? [{ objectId: o.id, version: o.version, digest: o.digest, balance: o.data.balance }]
                  : []
              )),
          payRefs: (grantObjectId) =>
            Effect.gen(function*() {
              const grant = yield* ledger.getObject(grantObjectId)
              if (Option.isNone(grant) || grant.value.data._tag !== "Grant") {
                return yield* new NotFound({ message: "The object is not a grant", reason: `object ${grantObjectId} is not a Grant` })
              }
              const pool = yield* ledger.getObject(grant.value.data.poolId)
              const coinType = Option.isSome(pool) && pool.value.data._tag === "Pool" ? pool.value.data.coinType : ""
              return { grant: yield* sharedRef(grantObjectId), pool: yield* sharedRef(grant.value.data.poolId), coinType }
            })
        }),
        getTransaction: ledger.getTransaction,
        sharedVersion: (objectId) => Effect.map(sharedRef(objectId), (ref) => ref.initialSharedVersion)
      })
    })
  )
}
