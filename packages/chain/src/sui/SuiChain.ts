import { bcs } from "@mysten/sui/bcs"
import { type ClientWithCoreApi, ObjectError, type SuiClientTypes, TransactionError } from "@mysten/sui/client"
import { normalizeStructTag, normalizeSuiAddress, parseStructTag } from "@mysten/sui/utils"
import { Effect, Layer, Option } from "effect"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import {
  grantType,
  grantWindowOf,
  MODULE,
  normalizeCoinType,
  poolIdOf,
  poolType,
  type SpendAccountPackage,
  Structs
} from "@gateway/domain/chain/SpendAccountModule"
import { NotFinal, NotFound, Unavailable } from "@gateway/domain/Errors"
import { encodeBase64 } from "../Base64.ts"
import { timedChainCall } from "../ChainMetrics.ts"
import { kindBuilders } from "../transactions/KindBuilders.ts"
import { makeMemo } from "../Memo.ts"
import type { SharedRef } from "../transactions/Kinds.ts"
import { Chain, type GrantOnChain, type PoolRef, type SessionOnChain } from "../Chain.ts"
import { describeExecutionError } from "./ExecutionErrorText.ts"
import { moveCallsOf } from "./MoveCalls.ts"

export interface SuiChainConfig {
  /** Any client with Sui's core API: a `SuiGrpcClient` on a full node, or on LocalLedger's in-process transport. */
  readonly client: ClientWithCoreApi
  /** `localnet`, `devnet`, `testnet`, `mainnet`, or any name the node goes by. */
  readonly network: string
  readonly pkg: SpendAccountPackage
  /** The coin types whose pools `listPools` looks up for every owner. */
  readonly assets: ReadonlyArray<string>
}

/** A node that does not answer in this long is treated as down, so a request never hangs on it. */
const CALL_TIMEOUT = "10 seconds"

/** Objects asked for in one `getObjects`: JSON-RPC's multi-get limit, which full nodes' batch reads also accept. */
const OBJECTS_PER_BATCH = 50

/** Derived pool ids remembered, by owner and coin type; past this many the memo starts over, so it stays bounded. */
const POOL_IDS_KEPT = 10_000

const unavailable = (reason: string) => new Unavailable({ message: "The chain is unavailable", reason })

/** The caller named an object the chain does not hold as it must be: its mistake, not an outage. */
const notFound = (reason: string) => new NotFound({ message: "The object is not on chain", reason })

/**
 * The node could not be reached, failed the call or did not answer in time:
 * the caller gets one stable reason; the node's own words (which may name its
 * address) are logged, never returned.
 */
const unreachable = (method: string, error: unknown) =>
  Effect.andThen(
    Effect.logWarning("chain unavailable", method, error instanceof Error ? error.message : String(error)),
    Effect.fail(unavailable("chain_unreachable"))
  )

/**
 * One call to the node, in a client span named for the core API method (its
 * attributes name digests and object ids only): a rejection or a timeout is
 * UNAVAILABLE, unless `known` makes it an error of the caller's.
 */
const node = <A, E = never>(
  method: string,
  f: (signal: AbortSignal) => Promise<A>,
  options: {
    readonly known?: (error: unknown) => Option.Option<E>
    readonly attributes?: Record<string, unknown>
  } = {}
): Effect.Effect<A, E | Unavailable> =>
  Effect.tryPromise({ try: f, catch: (error) => error }).pipe(
    Effect.timeoutOrElse({ duration: CALL_TIMEOUT, orElse: () => Effect.fail(new Error(`no answer in ${CALL_TIMEOUT}`)) }),
    timedChainCall(method),
    Effect.catch((error): Effect.Effect<never, E | Unavailable> => {
      const mapped = options.known?.(error) ?? Option.none()
      return Option.isSome(mapped) ? Effect.fail(mapped.value) : unreachable(method, error)
    }),
    Effect.withSpan(`SuiChain.core.${method}`, { kind: "client", attributes: options.attributes ?? {} })
  )

/** Decodes what the node answered; bytes that do not decode mean the node is not to be trusted, not that the caller erred. */
const decodeOr = <A>(what: string, decode: () => A) => Effect.try({ try: decode, catch: () => unavailable(`the node answered ${what} in an unexpected shape`) })

type ChainObject = SuiClientTypes.Object<{ content: true }>

/** `T` of `<originalId>::spend_account::<name><T>`, normalized; none for any other type. */
const coinTypeOf = (pkg: SpendAccountPackage, name: string, type: string): Option.Option<string> => {
  try {
    const tag = parseStructTag(type)
    const [coin] = tag.typeParams
    return normalizeSuiAddress(tag.address) === normalizeSuiAddress(pkg.originalId) && tag.module === MODULE && tag.name === name &&
        coin !== undefined
      ? Option.some(normalizeStructTag(coin))
      : Option.none()
  } catch {
    return Option.none()
  }
}

const poolCoinType = (pkg: SpendAccountPackage, type: string) => coinTypeOf(pkg, "Pool", type)

const sharedVersionOf = (object: ChainObject): Option.Option<bigint> =>
  object.owner.$kind === "Shared" ? Option.some(BigInt(object.owner.Shared.initialSharedVersion)) : Option.none()

/**
 * A coin's decimals from its metadata (gRPC `GetCoinInfo`). The SDK answers a failed read as "no metadata", so
 * none means either; registration then keeps the seller's value rather than refusing it.
 */
const coinDecimals = (client: ClientWithCoreApi, coinType: string) =>
  Effect.map(
    node("getCoinMetadata", (signal) => client.core.getCoinMetadata({ coinType, signal }), { attributes: { coinType } }),
    ({ coinMetadata }) => Option.fromNullishOr(coinMetadata?.decimals)
  ).pipe(Effect.withSpan("SuiChain.coinDecimals", { attributes: { coinType } }))

/** Object reads through the node: batches, shared objects, and objects the chain itself names. */
const objectReads = (client: ClientWithCoreApi) => {
  /** The objects at `ids`, in order; none where the node holds no such object. */
  const objects = (ids: ReadonlyArray<string>) =>
    Effect.flatMap(
      node("getObjects", (signal) => client.core.getObjects({ objectIds: [...ids], include: { content: true }, signal }), { attributes: { objectIds: ids } }),
      ({ objects }) =>
        Effect.forEach(objects, (found) =>
          found instanceof ObjectError
            ? found.reason === "notFound" ? Effect.succeedNone : Effect.fail(unavailable(found.message))
            : found instanceof Error
            ? Effect.fail(unavailable(found.message))
            : Effect.succeedSome(found))
    )

  const sharedObject = (objectId: string) =>
    Effect.gen(function*() {
      const [found] = yield* objects([objectId])
      if (found === undefined || Option.isNone(found)) return yield* notFound(`object ${objectId} is not on chain`)
      const version = sharedVersionOf(found.value)
      if (Option.isNone(version)) return yield* notFound(`object ${objectId} is not a shared object`)
      return { object: found.value, ref: { objectId: normalizeSuiAddress(found.value.objectId), initialSharedVersion: version.value } satisfies SharedRef }
    })

  // An object the chain itself names (a Grant's pool, the configured Registry) exists: if the node says otherwise it is unreliable.
  const namedByChain = (objectId: string) => Effect.catchTag(sharedObject(objectId), "NOT_FOUND", (missing) => Effect.fail(unavailable(missing.reason)))

  return { objects, sharedObject, namedByChain }
}

type ObjectReads = ReturnType<typeof objectReads>

/** Pools, read at the ids derived from the Registry and (owner, coin type). */
const poolReads = (config: SuiChainConfig, reads: ObjectReads) => {
  const { pkg } = config
  const toPool = (object: ChainObject, coinType: string) =>
    Effect.gen(function*() {
      const version = sharedVersionOf(object)
      const expected = normalizeStructTag(poolType(pkg.originalId, coinType))
      if (Option.isNone(version) || normalizeStructTag(object.type) !== expected) {
        return yield* unavailable(`object ${object.objectId} at a derived pool id is not a shared ${expected}`)
      }
      const fields = yield* decodeOr(`pool ${object.objectId}`, () => Structs.Pool.parse(object.content))
      return {
        poolId: normalizeSuiAddress(object.objectId),
        owner: normalizeSuiAddress(fields.owner),
        coinType: normalizeCoinType(coinType),
        balance: BigInt(fields.balance.value),
        initialSharedVersion: version.value
      } satisfies PoolRef
    })

  // A derived id costs a type-tag parse and a hash and never changes, and every create looks one up.
  const poolIds = makeMemo<string>(POOL_IDS_KEPT)
  const poolIdFor = (owner: string, coinType: string) => poolIds(`${owner}|${coinType}`, () => poolIdOf(pkg, owner, coinType))

  /** The owner's pools among `coinTypes`, read in one call at their derived ids. */
  const poolsOf = (owner: string, coinTypes: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const types = [...new Set(coinTypes.map(normalizeCoinType))]
      const found = yield* reads.objects(types.map((t) => poolIdFor(normalizeSuiAddress(owner), t)))
      return yield* Effect.forEach(
        types.flatMap((t, i) => {
          const object = found[i]
          return object !== undefined && Option.isSome(object) ? [toPool(object.value, t)] : []
        }),
        (pool) => pool
      )
    })

  const findPool = (owner: string, coinType: string) =>
    Effect.map(poolsOf(owner, [coinType]), (pools) => Option.fromNullishOr(pools[0])).pipe(Effect.withSpan("SuiChain.findPool", { attributes: { coinType } }))

  const listPools = (owner: string, also: ReadonlyArray<string> = []) =>
    poolsOf(owner, [...config.assets, ...also]).pipe(Effect.withSpan("SuiChain.listPools"))

  return { findPool, listPools }
}

/** What an address holds of a coin type: its coin objects, and its address balance. */
const balanceReads = (client: ClientWithCoreApi) => {
  const coins = (owner: string, coinType: string) =>
    Effect.gen(function*() {
      const all: Array<{ objectId: string; version: bigint; digest: string; balance: bigint }> = []
      let cursor: string | null = null
      for (;;) {
        const page: SuiClientTypes.ListCoinsResponse = yield* node("listCoins", (signal) => client.core.listCoins({ owner, coinType, cursor, signal }))
        for (const c of page.objects) all.push({ objectId: c.objectId, version: BigInt(c.version), digest: c.digest, balance: BigInt(c.balance) })
        if (!page.hasNextPage || page.cursor === null) return all
        cursor = page.cursor
      }
    }).pipe(Effect.withSpan("SuiChain.coins", { attributes: { coinType } }))

  const addressBalance = (owner: string, coinType: string) =>
    Effect.map(node("getBalance", (signal) => client.core.getBalance({ owner, coinType, signal })), ({ balance }) => BigInt(balance.addressBalance)).pipe(
      Effect.withSpan("SuiChain.addressBalance", { attributes: { coinType } })
    )

  return { coins, addressBalance }
}

/** Grants: the refs a payment names, and their figures for a view. */
const grantReads = (pkg: SpendAccountPackage, reads: ObjectReads) => {
  const payRefs = (grantObjectId: string) =>
    Effect.gen(function*() {
      const grant = yield* reads.sharedObject(grantObjectId)
      if (!isGrant(grant.object)) {
        return yield* notFound(`object ${grantObjectId} is not a Grant`)
      }
      const fields = yield* decodeOr(`grant ${grantObjectId}`, () => Structs.Grant.parse(grant.object.content))
      const pool = yield* reads.namedByChain(fields.pool_id)
      const coinType = poolCoinType(pkg, pool.object.type)
      if (Option.isNone(coinType)) return yield* unavailable(`object ${fields.pool_id} is not a spend_account Pool`)
      return { grant: grant.ref, pool: pool.ref, coinType: coinType.value }
    }).pipe(Effect.withSpan("SuiChain.payRefs", { attributes: { objectId: grantObjectId } }))

  const isGrant = (object: ChainObject) => normalizeStructTag(object.type) === normalizeStructTag(grantType(pkg.originalId))

  /** Grants in batches of OBJECTS_PER_BATCH; ids that are not Grants on chain are left out (a view shows no figures for them). */
  const readGrants = (grantObjectIds: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const ids = [...new Set(grantObjectIds)]
      const batches = Array.from({ length: Math.ceil(ids.length / OBJECTS_PER_BATCH) }, (_, i) => ids.slice(i * OBJECTS_PER_BATCH, (i + 1) * OBJECTS_PER_BATCH))
      const found = (yield* Effect.forEach(batches, reads.objects, { concurrency: 4 })).flat()
      return yield* Effect.forEach(
        found.flatMap((object) => Option.isSome(object) && isGrant(object.value) ? [object.value] : []),
        (object) =>
          Effect.map(decodeOr(`grant ${object.objectId}`, () => Structs.Grant.parse(object.content)), (fields): GrantOnChain => ({
            grantObjectId: normalizeSuiAddress(object.objectId),
            sessionCap: BigInt(fields.session_cap),
            spent: BigInt(fields.spent),
            window: grantWindowOf(fields),
            recipients: fields.recipients.map((r) => normalizeSuiAddress(r)),
            paused: fields.paused,
            revoked: fields.revoked
          }))
      )
    }).pipe(Effect.withSpan("SuiChain.readGrants", { attributes: { count: grantObjectIds.length } }))

  return { payRefs, readGrants }
}

const UNKNOWN_DIGEST_MESSAGE =
  "The chain does not know this transaction yet: if it was executed just now, present the same digest again in a few seconds. If it stays unknown, check the digest: a mistyped digest, or a transaction your wallet never executed, is never known, and nothing was recorded"

/** A transaction as the gateway reads it: its sender, status, `spend_account` calls and events. */
const getTransaction = (client: ClientWithCoreApi, pkg: SpendAccountPackage, digest: string) =>
  Effect.gen(function*() {
    const result = yield* node(
      "getTransaction",
      (signal) => client.core.getTransaction({ digest, include: { events: true, bcs: true }, signal }),
      {
        // The node's "no such transaction": not known yet, which a later finalize may find; or never, when the digest
        // is mistyped or its transaction was never executed, which only the caller can tell, so the message says both.
        known: (error) =>
          error instanceof TransactionError && error.reason === "notFound"
            ? Option.some(new NotFinal({ message: UNKNOWN_DIGEST_MESSAGE, reason: "unknown_digest" }))
            : Option.none(),
        attributes: { digest }
      }
    )
    const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
    const data = yield* decodeOr(`transaction ${digest}`, () => bcs.TransactionData.parse(tx.bcs))
    return {
      digest: tx.digest,
      sender: normalizeSuiAddress(data.V1.sender),
      status: tx.status.success ? "success" : "failure",
      error: tx.status.success ? null : describeExecutionError(tx.status.error),
      checkpoint: tx.checkpoint,
      timestampMs: String(tx.timestampMs ?? 0),
      calls: moveCallsOf(pkg, data),
      events: tx.events.map((e) => ({ type: e.eventType, sender: normalizeSuiAddress(e.sender), parsedJson: e.json, bcs: encodeBase64(e.bcs) }))
    } satisfies ChainTransaction
  }).pipe(Effect.withSpan("SuiChain.getTransaction", { attributes: { digest } }))

/** A session object's fields; none where the id holds no shared `Session`. */
const readSession = (pkg: SpendAccountPackage, reads: ObjectReads, sessionId: string) =>
  Effect.gen(function*() {
    const [found] = yield* reads.objects([sessionId])
    if (found === undefined || Option.isNone(found)) return Option.none<SessionOnChain>()
    const object = found.value
    const coinType = coinTypeOf(pkg, "Session", object.type)
    const version = sharedVersionOf(object)
    if (Option.isNone(coinType) || Option.isNone(version)) return Option.none<SessionOnChain>()
    const fields = yield* decodeOr(`session ${sessionId}`, () => Structs.Session.parse(object.content))
    return Option.some<SessionOnChain>({
      sessionId: normalizeSuiAddress(object.objectId),
      initialSharedVersion: version.value,
      coinType: coinType.value,
      grantObjectId: normalizeSuiAddress(fields.grant_id),
      poolId: normalizeSuiAddress(fields.pool_id),
      owner: normalizeSuiAddress(fields.owner),
      delegate: normalizeSuiAddress(fields.delegate),
      payee: normalizeSuiAddress(fields.payee),
      operator: normalizeSuiAddress(fields.operator),
      voucherKey: Uint8Array.from(fields.voucher_key),
      deposit: BigInt(fields.deposit),
      claimed: BigInt(fields.claimed),
      expiryMs: BigInt(fields.expiry_ms),
      closeAtMs: BigInt(fields.close_at_ms)
    })
  }).pipe(Effect.withSpan("SuiChain.readSession", { attributes: { objectId: sessionId } }))

/** The Registry's ref, read at its first use. */
const registryRefOf = (pkg: SpendAccountPackage, reads: ObjectReads) => {
  // The Registry's initial shared version never changes: read it once it is found.
  let registry: SharedRef | undefined
  return Effect.suspend(() =>
    registry !== undefined
      ? Effect.succeed(registry)
      : Effect.map(reads.namedByChain(pkg.registryId), ({ ref }) => {
        registry = ref
        return ref
      })
  )
}

/** The kind builders, each in a span naming the object it builds around. */
const tracedBuilders = (builders: ReturnType<typeof kindBuilders>): ReturnType<typeof kindBuilders> => ({
  buildCreateGrant: (input) =>
    builders.buildCreateGrant(input).pipe(Effect.withSpan("SuiChain.buildCreateGrant", { attributes: { objectId: input.pool.poolId } })),
  buildRevoke: (input) => builders.buildRevoke(input).pipe(Effect.withSpan("SuiChain.buildRevoke", { attributes: { objectId: input.grantObjectId } })),
  buildPause: (input) => builders.buildPause(input).pipe(Effect.withSpan("SuiChain.buildPause", { attributes: { objectId: input.grantObjectId } })),
  buildResume: (input) => builders.buildResume(input).pipe(Effect.withSpan("SuiChain.buildResume", { attributes: { objectId: input.grantObjectId } })),
  buildFundPool: (input) => builders.buildFundPool(input).pipe(Effect.withSpan("SuiChain.buildFundPool", { attributes: { coinType: input.coinType } })),
  buildPay: (input) => builders.buildPay(input).pipe(Effect.withSpan("SuiChain.buildPay", { attributes: { objectId: input.grantObjectId } }))
})

/**
 * The `Chain` over Sui's core API (`client.core.*`): a full node through
 * `SuiGrpcClient`, or LocalLedger behind the same protocol in local mode. Pools
 * sit at ids derived from the Registry and (owner, coin type), so finding one
 * is one object read, never an event scan.
 */
export const layer = (config: SuiChainConfig): Layer.Layer<Chain> =>
  Layer.sync(Chain, () => {
    const { client, pkg } = config
    const reads = objectReads(client)
    const pools = poolReads(config, reads)
    const balances = balanceReads(client)
    const grants = grantReads(pkg, reads)
    const builders = kindBuilders(pkg, {
      sharedRef: (objectId) => Effect.map(reads.sharedObject(objectId), ({ ref }) => ref),
      registryRef: registryRefOf(pkg, reads),
      findPool: pools.findPool,
      coins: balances.coins,
      addressBalance: balances.addressBalance,
      payRefs: grants.payRefs
    })

    return Chain.of({
      network: `sui:${config.network}`,
      pkg,
      health: Effect.asVoid(node("getReferenceGasPrice", (signal) => client.core.getReferenceGasPrice({ signal }))).pipe(
        Effect.withSpan("SuiChain.health")
      ),
      findPool: pools.findPool,
      listPools: pools.listPools,
      ...tracedBuilders(builders),
      getTransaction: (digest) => getTransaction(client, pkg, digest),
      readGrants: grants.readGrants,
      readSession: (sessionId) => readSession(pkg, reads, sessionId),
      coinDecimals: (coinType) => coinDecimals(client, coinType),
      sharedVersion: (objectId) =>
        Effect.map(reads.sharedObject(objectId), ({ ref }) => ref.initialSharedVersion).pipe(Effect.withSpan("SuiChain.sharedVersion", { attributes: { objectId } }))
    })
  })
