import { JsonRpcError, SuiJsonRpcClient } from "@mysten/sui/jsonRpc"
import { fromBase64, normalizeStructTag, normalizeSuiAddress, parseStructTag } from "@mysten/sui/utils"
import { Effect, Layer, Option, Schema } from "effect"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import { Events, eventType, grantType, MODULE, normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { NotFinal, NotFound, Unavailable } from "@gateway/domain/Errors"
import { kindBuilders } from "../build/KindBuilders.ts"
import type { SharedRef } from "../build/Kinds.ts"
import { Chain, type PoolRef } from "../Chain.ts"
import { normalizeTypeArgument } from "../TypeArgument.ts"
import { moveCallsOf, transactionDataOf } from "./MoveCalls.ts"

export interface SuiChainConfig {
  readonly url: string
  /** `localnet`, `devnet`, `testnet`, `mainnet`, or any name the node goes by. */
  readonly network: string
  readonly packageId: string
}

const unavailable = (reason: string) => new Unavailable({ message: "The chain is unavailable", reason })

/** The caller named an object the chain does not hold as it must be: its mistake, not an outage. */
const notFound = (reason: string) => new NotFound({ message: "The object is not on chain", reason })

const unreachable = (error: unknown) => unavailable(error instanceof Error ? error.message : "chain_unreachable")

const rpc = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: unreachable })

/** What the node answers that the adapter must not take on trust: owners and Move fields arrive as untyped JSON. */
const SharedOwner = Schema.Struct({ Shared: Schema.Struct({ initial_shared_version: Schema.Union([Schema.Number, Schema.String]) }) })
const PoolFields = Schema.Struct({ owner: Schema.String, balance: Schema.String })
const GrantFields = Schema.Struct({ pool_id: Schema.String })

const decode = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown, what: string) =>
  Effect.mapError(Schema.decodeUnknownEffect(schema)(input), () => unavailable(`the node answered ${what} in an unexpected shape`))

/** A shared object as the node reports it: the ref the builders need, its type, and its Move fields. */
interface SharedObject extends SharedRef {
  readonly type: string
  readonly fields: unknown
}

/** `T` of `<package>::spend_account::Pool<T>`, normalized; none for any other type, or a type that does not parse. */
const poolCoinType = (packageId: string, type: string): Option.Option<string> => {
  try {
    const tag = parseStructTag(type)
    const [coin] = tag.typeParams
    if (normalizeSuiAddress(tag.address) !== normalizeSuiAddress(packageId) || tag.module !== MODULE || tag.name !== "Pool" || coin === undefined) {
      return Option.none()
    }
    return Option.some(normalizeStructTag(coin))
  } catch {
    return Option.none()
  }
}

const isGrantType = (packageId: string, type: string) => normalizeTypeArgument(type) === normalizeStructTag(grantType(packageId))

/**
 * The live adapter: the same `Chain` over a Sui JSON-RPC endpoint (a full
 * node, or LocalLedger's own `/sui` front, which is how it is tested). With
 * no indexer, pools are found through the package's `PoolCreated` events.
 */
export const layer = (config: SuiChainConfig): Layer.Layer<Chain> =>
  Layer.sync(Chain, () => {
    const client = new SuiJsonRpcClient({ url: config.url, network: config.network })
    const { packageId } = config

    const sharedObject = (objectId: string) =>
      Effect.gen(function*() {
        const found = yield* rpc(() => client.getObject({ id: objectId, options: { showOwner: true, showType: true, showContent: true } }))
        const data = found.data
        if (data === null || data === undefined) return yield* notFound(`object ${objectId} is not on chain`)
        const owner = Schema.decodeUnknownOption(SharedOwner)(data.owner)
        if (Option.isNone(owner)) return yield* notFound(`object ${objectId} is not a shared object`)
        const content = data.content
        return {
          objectId: normalizeSuiAddress(data.objectId),
          initialSharedVersion: BigInt(owner.value.Shared.initial_shared_version),
          type: data.type ?? "",
          fields: content?.dataType === "moveObject" ? content.fields : null
        } satisfies SharedObject
      })

    // A pool the chain itself names (in a PoolCreated or a Grant) exists, as pools are never deleted: if the node says otherwise it is unreliable.
    const poolNamedByChain = (poolId: string) =>
      Effect.catchTag(sharedObject(poolId), "NOT_FOUND", (missing) => Effect.fail(unavailable(missing.reason)))

    const sharedRef = (objectId: string) =>
      Effect.map(sharedObject(objectId), ({ objectId, initialSharedVersion }): SharedRef => ({ objectId, initialSharedVersion }))

    // Every PoolCreated, oldest first, read from the event's BCS (what verifiers trust), page by page.
    const poolCreations = Effect.gen(function*() {
      const created: Array<{ readonly poolId: string; readonly owner: string }> = []
      let cursor: { txDigest: string; eventSeq: string } | null = null
      for (;;) {
        const page = yield* rpc(() =>
          client.queryEvents({ query: { MoveEventType: eventType(packageId, "PoolCreated") }, cursor, order: "ascending" })
        )
        for (const event of page.data) {
          const parsed = yield* Effect.try({
            try: () => Events.PoolCreated.parse(fromBase64(event.bcs)),
            catch: () => unavailable("a PoolCreated event does not decode")
          })
          created.push({ poolId: normalizeSuiAddress(parsed.pool_id), owner: normalizeSuiAddress(parsed.owner) })
        }
        if (!page.hasNextPage || page.nextCursor === null || page.nextCursor === undefined) return created
        cursor = page.nextCursor
      }
    })

    const listPools = (owner: string) =>
      Effect.gen(function*() {
        const mine = (yield* poolCreations).filter((p) => p.owner === normalizeSuiAddress(owner))
        return yield* Effect.forEach(mine, ({ poolId }) =>
          Effect.gen(function*() {
            const object = yield* poolNamedByChain(poolId)
            const fields = yield* decode(PoolFields, object.fields, `pool ${poolId}`)
            const coinType = poolCoinType(packageId, object.type)
            if (Option.isNone(coinType)) return yield* unavailable(`object ${poolId} is not a spend_account Pool`)
            return {
              poolId: object.objectId,
              owner: normalizeSuiAddress(fields.owner),
              coinType: coinType.value,
              balance: BigInt(fields.balance),
              initialSharedVersion: object.initialSharedVersion
            } satisfies PoolRef
          }))
      })

    const findPool = (owner: string, coinType: string) =>
      Effect.map(listPools(owner), (pools) => Option.fromNullishOr(pools.find((p) => p.coinType === normalizeCoinType(coinType))))

    const getTransaction = (digest: string) =>
      Effect.gen(function*() {
        const tx = yield* Effect.tryPromise({
          try: () => client.getTransactionBlock({ digest, options: { showRawInput: true, showEffects: true, showEvents: true } }),
          // The node's "no such transaction" answer: not known yet, as LocalLedger says it.
          catch: (error) =>
            error instanceof JsonRpcError && error.code === -32602 && error.message.includes("Could not find the referenced transaction")
              ? new NotFinal({ message: "The transaction is not known to the chain yet", reason: "unknown_digest" })
              : unreachable(error)
        })
        const raw = tx.rawTransaction
        const data = raw === undefined ? undefined : yield* Effect.try({ try: () => transactionDataOf(raw), catch: () => unavailable(`transaction ${digest} does not decode`) })
        if (data === undefined) return yield* unavailable(`the node gave no input for transaction ${digest}`)
        const status = tx.effects?.status
        return {
          digest: tx.digest,
          sender: normalizeSuiAddress(data.V1.sender),
          status: status?.status === "success" ? "success" : "failure",
          error: status?.status === "success" ? null : status?.error ?? "unknown",
          checkpoint: tx.checkpoint ?? null,
          timestampMs: tx.timestampMs ?? "0",
          calls: moveCallsOf(packageId, data),
          events: (tx.events ?? []).map((e) => ({ type: e.type, sender: normalizeSuiAddress(e.sender), parsedJson: e.parsedJson, bcs: e.bcs }))
        } satisfies ChainTransaction
      })

    return Chain.of({
      network: `sui:${config.network}`,
      packageId,
      health: Effect.asVoid(rpc(() => client.getLatestCheckpointSequenceNumber())),
      findPool,
      listPools,
      ...kindBuilders(packageId, {
        sharedRef,
        findPool,
        coins: (owner, coinType) =>
          Effect.map(rpc(() => client.getCoins({ owner, coinType })), (page) =>
            page.data.map((c) => ({ objectId: c.coinObjectId, version: BigInt(c.version), digest: c.digest, balance: BigInt(c.balance) }))),
        payRefs: (grantObjectId) =>
          Effect.gen(function*() {
            const grant = yield* sharedObject(grantObjectId)
            if (!isGrantType(packageId, grant.type)) return yield* notFound(`object ${grantObjectId} is not a Grant`)
            const fields = yield* decode(GrantFields, grant.fields, `grant ${grantObjectId}`)
            const pool = yield* poolNamedByChain(fields.pool_id)
            const coinType = poolCoinType(packageId, pool.type)
            if (Option.isNone(coinType)) return yield* unavailable(`object ${fields.pool_id} is not a spend_account Pool`)
            return {
              grant: { objectId: grant.objectId, initialSharedVersion: grant.initialSharedVersion },
              pool: { objectId: pool.objectId, initialSharedVersion: pool.initialSharedVersion },
              coinType: coinType.value
            }
          })
      }),
      getTransaction,
      sharedVersion: (objectId) => Effect.map(sharedRef(objectId), (ref) => ref.initialSharedVersion)
    })
  })
