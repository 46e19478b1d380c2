import { bcs } from "@mysten/sui/bcs"
import { fromBase64, fromHex, normalizeStructTag, normalizeSuiAddress, toBase58, toBase64, toHex } from "@mysten/sui/utils"
import { blake2b } from "@noble/hashes/blake2.js"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import {
  coinObjectType,
  Functions,
  grantType,
  isFunctionName,
  MODULE,
  normalizeCoinType,
  poolType,
  SUI_COIN_TYPE
} from "@gateway/domain/chain/SpendAccountModule"
import type { Unavailable } from "@gateway/domain/Errors"
import { normalizeTypeArgument } from "../TypeArgument.ts"
import type { ObjectEffects } from "./Executor.ts"
import type { LedgerObject } from "./LedgerObject.ts"
import { LocalLedger } from "./LocalLedger.ts"

/** What the local faucet gives per request: 10 SUI. */
export const FAUCET_AMOUNT = 10_000_000_000n

/** A JSON-RPC error as Sui's full node answers it; `code` and `message` are what clients match on. */
class RpcError extends Schema.TaggedError<RpcError>()("RpcError", { code: Schema.Number, message: Schema.String }) {}

/** A transaction the ledger refuses before executing it, as the full node reports a user input error. */
const refusedInput = (rejected: { readonly reason: string }) => Effect.fail(new RpcError({ code: -32002, message: rejected.reason }))

const methodNotFound = (method: string) => new RpcError({ code: -32601, message: `Method not found: ${method} is not served by the local ledger` })

/**
 * The exact text `SuiJsonRpcClient` recognises as "no such transaction"
 * (`isJsonRpcTransactionNotFound`); any other answer makes
 * `waitForTransaction` treat the failure as final or keep polling.
 */
const transactionNotFound = (digest: string) =>
  new RpcError({ code: -32602, message: `Could not find the referenced transaction [TransactionDigest(${digest})].` })

// ---------------------------------------------------------------------------
// Requests. The client sends every argument positionally and unset ones as
// `null`, so each optional element is `null`-able as well as omittable.

const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))
const Flag = optional(Schema.Boolean)

const RpcRequest = Schema.Struct({
  jsonrpc: Schema.optionalKey(Schema.String),
  id: Schema.optionalKey(Schema.Unknown),
  method: Schema.String,
  params: optional(Schema.Array(Schema.Unknown))
})

const ObjectOptions = optional(Schema.Struct({ showType: Flag, showOwner: Flag, showContent: Flag, showPreviousTransaction: Flag }))
type ObjectOptions = NonNullable<Schema.Schema.Type<typeof ObjectOptions>>

const TransactionOptions = optional(Schema.Struct({ showInput: Flag, showRawInput: Flag, showEffects: Flag, showEvents: Flag }))
type TransactionOptions = NonNullable<Schema.Schema.Type<typeof TransactionOptions>>

const NoParams = Schema.Tuple([])
const OwnerAndType = Schema.Tuple([Schema.String, optional(Schema.String), optional(Schema.Unknown), optional(Schema.Unknown)])
const OwnerOnly = Schema.Tuple([Schema.String])
const ObjectParams = Schema.Tuple([Schema.String, ObjectOptions])
const ObjectsParams = Schema.Tuple([Schema.Array(Schema.String), ObjectOptions])
const CheckpointParams = Schema.Tuple([Schema.Union([Schema.String, Schema.Number])])
const FunctionParams = Schema.Tuple([Schema.String, Schema.String, Schema.String])
const DryRunParams = Schema.Tuple([Schema.String])
const ExecuteParams = Schema.Tuple([
  Schema.String,
  Schema.Union([Schema.String, Schema.Array(Schema.String)]),
  TransactionOptions,
  optional(Schema.String)
])
const TransactionParams = Schema.Tuple([Schema.String, TransactionOptions])
const QueryEventsParams = Schema.Tuple([
  Schema.Struct({ MoveEventType: Schema.String }),
  optional(Schema.Unknown),
  optional(Schema.Number),
  optional(Schema.Boolean)
])
const FaucetRequest = Schema.Struct({ FixedAmountRequest: Schema.Struct({ recipient: Schema.String }) })

// ---------------------------------------------------------------------------
// Answers, in the JSON shapes of Sui's full node.

/** Sui's `ObjectDigest::OBJECT_DIGEST_DELETED`: the digest effects give a deleted object. */
const DELETED_DIGEST = toBase58(new Uint8Array(32).fill(99))

const ownerJson = (owner: LedgerObject["owner"]) => {
  switch (owner._tag) {
    case "Address":
      return { AddressOwner: owner.address }
    case "Shared":
      return { Shared: { initial_shared_version: Number(owner.initialSharedVersion) } }
    case "Immutable":
      return "Immutable"
  }
}

const typeOf = (o: LedgerObject, packageId: string) => {
  switch (o.data._tag) {
    case "Coin":
      return normalizeStructTag(coinObjectType(o.data.coinType))
    case "Pool":
      return normalizeStructTag(poolType(packageId, o.data.coinType))
    case "Grant":
      return normalizeStructTag(grantType(packageId))
    case "Clock":
      return normalizeStructTag("0x2::clock::Clock")
  }
}

/** The Move fields of each object kind, named as in the Move structs; `Balance<T>` shows as its value, the Clock the ledger's time. */
const fieldsOf = (o: LedgerObject, nowMs: number) => {
  const id = { id: o.id }
  switch (o.data._tag) {
    case "Coin":
      return { id, balance: o.data.balance.toString() }
    case "Pool":
      return { id, owner: o.data.owner, balance: o.data.balance.toString() }
    case "Grant":
      return {
        id,
        pool_id: o.data.poolId,
        owner: o.data.owner,
        delegate: o.data.delegate,
        session_cap: o.data.sessionCap.toString(),
        spent: o.data.spent.toString(),
        max_per_payment: o.data.maxPerPayment.toString(),
        expiry_ms: o.data.expiryMs.toString(),
        paused: o.data.paused,
        revoked: o.data.revoked,
        policy_ids: o.data.policyIds.map(String),
        kind: o.data.kind
      }
    case "Clock":
      return { id, timestamp_ms: String(nowMs) }
  }
}

const objectJson = (o: LedgerObject, packageId: string, options: ObjectOptions | null | undefined, nowMs: number) => {
  const type = typeOf(o, packageId)
  return {
    data: {
      objectId: o.id,
      version: o.version.toString(),
      digest: o.digest,
      ...(options?.showType ? { type } : {}),
      ...(options?.showOwner ? { owner: ownerJson(o.owner) } : {}),
      ...(options?.showPreviousTransaction ? { previousTransaction: o.createdBy } : {}),
      ...(options?.showContent ? { content: { dataType: "moveObject", type, hasPublicTransfer: o.data._tag === "Coin", fields: fieldsOf(o, nowMs) } } : {})
    }
  }
}

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type ProgrammableTransaction = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type CallArg = ProgrammableTransaction["inputs"][number]
type Command = ProgrammableTransaction["commands"][number]
type Argument = NonNullable<Command["SplitCoins"]>["coin"]

const argumentJson = (a: Argument) => {
  switch (a.$kind) {
    case "GasCoin":
      return "GasCoin"
    case "Input":
      return { Input: a.Input }
    case "Result":
      return { Result: a.Result }
    case "NestedResult":
      return { NestedResult: a.NestedResult }
  }
}

const inputJson = (input: CallArg) => {
  if (input.Pure) return { type: "pure", value: Array.from(fromBase64(input.Pure.bytes)) }
  const object = input.Object
  if (object?.SharedObject) {
    return {
      type: "object",
      objectType: "sharedObject",
      objectId: object.SharedObject.objectId,
      initialSharedVersion: String(object.SharedObject.initialSharedVersion),
      mutable: object.SharedObject.mutable
    }
  }
  const owned = object?.ImmOrOwnedObject ?? object?.Receiving
  if (owned) {
    return { type: "object", objectType: object?.Receiving ? "receiving" : "immOrOwnedObject", objectId: owned.objectId, version: String(owned.version), digest: owned.digest }
  }
  return { type: "unsupported" }
}

const commandJson = (command: Command) => {
  if (command.MoveCall) {
    const call = command.MoveCall
    return {
      MoveCall: {
        package: normalizeSuiAddress(call.package),
        module: call.module,
        function: call.function,
        type_arguments: call.typeArguments.map(normalizeTypeArgument),
        arguments: call.arguments.map(argumentJson)
      }
    }
  }
  if (command.SplitCoins) return { SplitCoins: [argumentJson(command.SplitCoins.coin), command.SplitCoins.amounts.map(argumentJson)] }
  if (command.MergeCoins) return { MergeCoins: [argumentJson(command.MergeCoins.destination), command.MergeCoins.sources.map(argumentJson)] }
  if (command.TransferObjects) return { TransferObjects: [command.TransferObjects.objects.map(argumentJson), argumentJson(command.TransferObjects.address)] }
  if (command.MakeMoveVec) return { MakeMoveVec: [command.MakeMoveVec.type, command.MakeMoveVec.elements.map(argumentJson)] }
  return { [command.$kind]: null }
}

/** `transaction.data` as `showInput` gives it. */
const transactionDataJson = (data: TransactionData) => {
  const pt = data.V1.kind.ProgrammableTransaction
  return {
    messageVersion: "v1",
    transaction: pt
      ? { kind: "ProgrammableTransaction", inputs: pt.inputs.map(inputJson), transactions: pt.commands.map(commandJson) }
      : { kind: data.V1.kind.$kind },
    sender: normalizeSuiAddress(data.V1.sender),
    gasData: {
      payment: data.V1.gasData.payment.map((p) => ({ objectId: p.objectId, version: String(p.version), digest: p.digest })),
      owner: normalizeSuiAddress(data.V1.gasData.owner),
      price: String(data.V1.gasData.price),
      budget: String(data.V1.gasData.budget)
    }
  }
}

/** Sui's event JSON; the emitting package and module are read off the event's type, as only Move code emits events. */
const eventJson = (digest: string, seq: number, event: ChainEvent, timestampMs: string | null) => {
  const [packageId = "", transactionModule = ""] = event.type.split("::")
  return {
    id: { txDigest: digest, eventSeq: String(seq) },
    packageId,
    transactionModule,
    sender: event.sender,
    type: event.type,
    parsedJson: event.parsedJson,
    bcsEncoding: "base64",
    bcs: event.bcs,
    ...(timestampMs === null ? {} : { timestampMs })
  }
}

/** The normalized Move types of `SpendAccountModule`'s parameter kinds, as `sui_getNormalizedMoveFunction` writes them. */
const normalizedParameter = (packageId: string, kind: (typeof Functions)[keyof typeof Functions]["parameters"][number]) => {
  const struct = (address: string, module: string, name: string, typeArguments: ReadonlyArray<unknown> = []) => ({
    Struct: { address, module, name, typeArguments }
  })
  const T0 = { TypeParameter: 0 }
  switch (kind) {
    case "coin":
      return struct("0x2", "coin", "Coin", [T0])
    case "pool":
      return { Reference: struct(packageId, MODULE, "Pool", [T0]) }
    case "pool_mut":
      return { MutableReference: struct(packageId, MODULE, "Pool", [T0]) }
    case "grant_mut":
      return { MutableReference: struct(packageId, MODULE, "Grant") }
    case "clock":
      return { Reference: struct("0x2", "clock", "Clock") }
    case "u64":
      return "U64"
    case "address":
      return "Address"
    case "vector<u64>":
      return { Vector: "U64" }
    case "vector<u8>":
      return { Vector: "U8" }
  }
}

/** The functions whose Move signature takes `&mut TxContext` (they create objects); the rest take `&TxContext`. */
const MUTABLE_CONTEXT: ReadonlySet<string> = new Set(["create_pool", "withdraw", "create_policy_grant", "pay"])

// ---------------------------------------------------------------------------

const decode = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown) =>
  Effect.mapError(
    Schema.decodeUnknownEffect(schema)(input),
    (error) => new RpcError({ code: -32602, message: `Invalid params: ${error.message}` })
  )

type Answer = Effect.Effect<unknown, RpcError | Unavailable>

/** A Move type from the caller, normalized; one that does not parse is the caller's error, not the ledger's. */
const moveType = (type: string) =>
  Effect.try({ try: () => normalizeStructTag(type), catch: () => new RpcError({ code: -32602, message: `Invalid params: ${type} is not a Move type` }) })

/**
 * LocalLedger over HTTP as the part of Sui's JSON-RPC that `SuiJsonRpcClient`
 * needs to pay gas, dry-run, sign and execute, read objects and coins, and
 * fetch transactions (`POST /sui`), and Sui's faucet protocol
 * (`POST /v2/gas`). Served only in local mode.
 */
export const JsonRpcFront: Layer.Layer<never, never, HttpRouter.HttpRouter | LocalLedger> = Layer.unwrap(
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const { packageId, referenceGasPrice, network } = ledger.config
    const normalizedPackage = normalizeSuiAddress(packageId)

    // Genesis checkpoint digest: stable for a network and package, so it serves as the chain identifier.
    const genesis = blake2b(new TextEncoder().encode(`local:${network}:${normalizedPackage}`), { dkLen: 32 })
    const checkpointDigest = (seq: bigint) =>
      seq === 0n ? toBase58(genesis) : toBase58(blake2b(new Uint8Array([...genesis, ...new TextEncoder().encode(seq.toString())]), { dkLen: 32 }))

    // Storage is not charged: a transaction's whole gas is its computation.
    const gasUsed = (computation: bigint) => ({
      computationCost: computation.toString(),
      storageCost: "0",
      storageRebate: "0",
      nonRefundableStorageFee: "0"
    })

    const coinsOf = (owner: string, coinType: string) =>
      Effect.map(ledger.ownedObjects(owner), (objects) =>
        objects.flatMap((o) =>
          o.data._tag === "Coin" && o.data.coinType === normalizeCoinType(coinType)
            ? [{
              coinType: normalizeStructTag(coinType),
              coinObjectId: o.id,
              version: o.version.toString(),
              digest: o.digest,
              balance: o.data.balance.toString(),
              previousTransaction: o.createdBy
            }]
            : []
        ))

    const balances = (owner: string) =>
      Effect.map(ledger.ownedObjects(owner), (objects) => {
        const byType = new Map<string, { count: number; total: bigint }>()
        for (const o of objects) {
          if (o.data._tag !== "Coin") continue
          const entry = byType.get(o.data.coinType) ?? { count: 0, total: 0n }
          byType.set(o.data.coinType, { count: entry.count + 1, total: entry.total + o.data.balance })
        }
        return byType
      })

    // No `fundsInAddressBalance`: LocalLedger has no address balances, and the
    // client would otherwise pay gas from a coin reservation it cannot execute.
    const balanceJson = (coinType: string, entry: { count: number; total: bigint } | undefined) => ({
      coinType: normalizeStructTag(coinType),
      coinObjectCount: entry?.count ?? 0,
      totalBalance: (entry?.total ?? 0n).toString(),
      lockedBalance: {}
    })

    const parseTransactionData = (txBytes: string) =>
      Effect.try({
        try: () => bcs.TransactionData.parse(fromBase64(txBytes)),
        catch: () => new RpcError({ code: -32602, message: "Invalid params: transaction bytes are not a BCS TransactionData" })
      })

    /** Sui's effects JSON from what the execution wrote: created objects are those this transaction made. */
    const effectsJson = (digest: string, outcome: { readonly status: "success" | "failure"; readonly error: string | null }, effects: ObjectEffects) => {
      const changed = (o: LedgerObject) => ({ owner: ownerJson(o.owner), reference: { objectId: o.id, version: o.version.toString(), digest: o.digest } })
      return {
        messageVersion: "v1",
        status: outcome.status === "success" ? { status: "success" } : { status: "failure", error: outcome.error ?? "failure" },
        executedEpoch: "0",
        gasUsed: gasUsed(effects.gasCharged),
        transactionDigest: digest,
        created: effects.written.filter((o) => o.createdBy === digest).map(changed),
        mutated: effects.written.filter((o) => o.createdBy !== digest).map(changed),
        deleted: effects.deleted.map((objectId) => ({ objectId, version: effects.version.toString(), digest: DELETED_DIGEST })),
        gasObject: changed(effects.gasObject),
        dependencies: []
      }
    }

    const transactionBlock = (digest: string, options: TransactionOptions | null | undefined) =>
      Effect.gen(function*() {
        const raw = yield* ledger.getRaw(digest)
        if (Option.isNone(raw)) return yield* transactionNotFound(digest)
        const tx = yield* Effect.catchTag(ledger.getTransaction(digest), "NOT_FINAL", () => Effect.fail(transactionNotFound(digest)))
        const data = yield* parseTransactionData(raw.value.txBytes)
        const signatures = [...raw.value.signatures]
        const effects = effectsJson(digest, tx, raw.value.effects)
        return {
          digest,
          ...(options?.showInput ? { transaction: { data: transactionDataJson(data), txSignatures: signatures } } : {}),
          ...(options?.showRawInput
            ? {
              rawTransaction: toBase64(bcs.SenderSignedData.serialize([{
                intentMessage: { intent: { scope: { TransactionData: true }, version: { V0: true }, appId: { Sui: true } }, value: data },
                txSignatures: signatures
              }]).toBytes())
            }
            : {}),
          ...(options?.showEffects ? { effects } : {}),
          ...(options?.showEvents ? { events: tx.events.map((e, seq) => eventJson(digest, seq, e, tx.timestampMs)) } : {}),
          ...(tx.checkpoint === null ? {} : { checkpoint: tx.checkpoint }),
          timestampMs: tx.timestampMs
        }
      })

    const getObjects = (ids: ReadonlyArray<string>, options: ObjectOptions | null | undefined) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        Effect.forEach(ids, (objectId) =>
          Effect.map(ledger.getObject(objectId), (found) =>
            Option.match(found, {
              onNone: () => ({ error: { code: "notExists", object_id: normalizeSuiAddress(objectId) } }),
              onSome: (o) => objectJson(o, packageId, options, nowMs)
            }))))

    const methods: Record<string, (params: ReadonlyArray<unknown>) => Answer> = {
      suix_getReferenceGasPrice: (params) => Effect.as(decode(NoParams, params), referenceGasPrice.toString()),
      suix_getLatestSuiSystemState: (params) =>
        Effect.as(decode(NoParams, params), {
          epoch: "0",
          protocolVersion: "1",
          systemStateVersion: "1",
          referenceGasPrice: referenceGasPrice.toString(),
          epochStartTimestampMs: "0",
          epochDurationMs: "86400000",
          safeMode: false,
          safeModeStorageRewards: "0",
          safeModeComputationRewards: "0",
          safeModeStorageRebates: "0",
          safeModeNonRefundableStorageFee: "0",
          storageFundTotalObjectStorageRebates: "0",
          storageFundNonRefundableBalance: "0",
          totalStake: "0",
          activeValidators: [],
          pendingActiveValidatorsSize: "0",
          pendingRemovals: [],
          atRiskValidators: [],
          validatorReportRecords: []
        }),
      sui_getChainIdentifier: (params) => Effect.as(decode(NoParams, params), toHex(genesis.slice(0, 4))),
      sui_getLatestCheckpointSequenceNumber: (params) => Effect.andThen(decode(NoParams, params), Effect.map(ledger.latestCheckpoint, String)),
      sui_getCheckpoint: (params) =>
        Effect.gen(function*() {
          const [id] = yield* decode(CheckpointParams, params)
          const seq = yield* Effect.try({ try: () => BigInt(id), catch: () => new RpcError({ code: -32602, message: `Invalid params: checkpoint id ${id}` }) })
          if (seq < 0n || seq > (yield* ledger.latestCheckpoint)) {
            return yield* new RpcError({ code: -32602, message: `Could not find the referenced checkpoint [${seq}].` })
          }
          return {
            epoch: "0",
            sequenceNumber: seq.toString(),
            digest: checkpointDigest(seq),
            networkTotalTransactions: "0",
            ...(seq === 0n ? {} : { previousDigest: checkpointDigest(seq - 1n) }),
            epochRollingGasCostSummary: gasUsed(0n),
            timestampMs: "0",
            transactions: [],
            checkpointCommitments: [],
            validatorSignature: toBase64(new Uint8Array(48))
          }
        }),
      suix_getCoins: (params) =>
        Effect.gen(function*() {
          const [owner, coinType] = yield* decode(OwnerAndType, params)
          return { data: yield* coinsOf(owner, yield* moveType(coinType ?? SUI_COIN_TYPE)), hasNextPage: false, nextCursor: null }
        }),
      suix_getBalance: (params) =>
        Effect.gen(function*() {
          const [owner, coinType] = yield* decode(OwnerAndType, params)
          const type = yield* moveType(coinType ?? SUI_COIN_TYPE)
          return balanceJson(type, (yield* balances(owner)).get(type))
        }),
      suix_getAllBalances: (params) =>
        Effect.gen(function*() {
          const [owner] = yield* decode(OwnerOnly, params)
          return [...(yield* balances(owner))].map(([coinType, entry]) => balanceJson(coinType, entry))
        }),
      sui_getObject: (params) =>
        Effect.gen(function*() {
          const [id, options] = yield* decode(ObjectParams, params)
          const [object] = yield* getObjects([id], options)
          return object
        }),
      sui_multiGetObjects: (params) => Effect.flatMap(decode(ObjectsParams, params), ([ids, options]) => getObjects(ids, options)),
      sui_getNormalizedMoveFunction: (params) =>
        Effect.gen(function*() {
          const [pkg, module, name] = yield* decode(FunctionParams, params)
          if (normalizeSuiAddress(pkg) !== normalizedPackage || module !== MODULE || !isFunctionName(name)) {
            return yield* new RpcError({ code: -32602, message: `No function was found with function name ${name}` })
          }
          const spec = Functions[name]
          const context = { Struct: { address: "0x2", module: "tx_context", name: "TxContext", typeArguments: [] } }
          return {
            visibility: "Public",
            isEntry: false,
            typeParameters: Array.from({ length: spec.typeParameters }, () => ({ abilities: [] })),
            parameters: [
              ...spec.parameters.map((kind) => normalizedParameter(normalizedPackage, kind)),
              MUTABLE_CONTEXT.has(name) ? { MutableReference: context } : { Reference: context }
            ],
            return: []
          }
        }),
      suix_queryEvents: (params) =>
        Effect.gen(function*() {
          // Only the filter a live adapter needs: every event of one Move type, from final transactions.
          const [query, , , descending] = yield* decode(QueryEventsParams, params)
          const wanted = yield* moveType(query.MoveEventType)
          // The ledger writes event types with the package id as configured; the filter may spell it in full.
          const events = yield* ledger.finalEvents(wanted.startsWith(`${normalizedPackage}::`) ? `${packageId}${wanted.slice(normalizedPackage.length)}` : wanted)
          const data = events.map((e) => eventJson(e.digest, e.seq, e.event, null))
          return { data: descending === false ? data : data.reverse(), hasNextPage: false, nextCursor: null }
        }),
      sui_dryRunTransactionBlock: (params) =>
        Effect.gen(function*() {
          // The ledger executes the transaction on its current state and keeps nothing.
          const [txBytes] = yield* decode(DryRunParams, params)
          const data = yield* parseTransactionData(txBytes)
          const run = yield* Effect.catchTag(ledger.dryRun(txBytes), "LedgerRejected", refusedInput)
          return {
            effects: effectsJson(run.digest, run, run.effects),
            events: run.events.map((e, seq) => eventJson(run.digest, seq, e, null)),
            objectChanges: [],
            balanceChanges: [],
            input: transactionDataJson(data)
          }
        }),
      sui_executeTransactionBlock: (params) =>
        Effect.gen(function*() {
          const [txBytes, signature, options] = yield* decode(ExecuteParams, params)
          const signatures = typeof signature === "string" ? [signature] : signature
          const executed = yield* Effect.catchTag(ledger.executeSigned(txBytes, signatures), "LedgerRejected", refusedInput)
          return yield* transactionBlock(executed.digest, options)
        }),
      sui_getTransactionBlock: (params) => Effect.flatMap(decode(TransactionParams, params), ([digest, options]) => transactionBlock(digest, options))
    }

    const errorJson = (error: RpcError | Unavailable) =>
      error._tag === "RpcError" ? { code: error.code, message: error.message } : { code: -32000, message: `The local ledger is unavailable: ${error.reason}` }

    const answerOne = (body: unknown) =>
      Effect.gen(function*() {
        const request = Schema.decodeUnknownOption(RpcRequest)(body)
        if (Option.isNone(request)) return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } }
        const { id = null, method, params } = request.value
        const run = Object.hasOwn(methods, method) ? methods[method] : undefined
        const answer = run === undefined ? Effect.fail(methodNotFound(method)) : run(params ?? [])
        return yield* answer.pipe(
          Effect.map((result) => ({ jsonrpc: "2.0", id, result })),
          Effect.catch((error) => Effect.succeed({ jsonrpc: "2.0", id, error: errorJson(error) })),
          Effect.catchDefect(() => Effect.succeed({ jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } }))
        )
      })

    const rpc = HttpRouter.add("POST", "/sui", (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const body = yield* Effect.option(request.json)
        if (Option.isNone(body)) {
          return HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
        }
        // A batch is answered element by element, in order, as JSON-RPC 2.0 asks.
        if (Array.isArray(body.value) && body.value.length > 0) {
          return HttpServerResponse.jsonUnsafe(yield* Effect.forEach(body.value, answerOne))
        }
        return HttpServerResponse.jsonUnsafe(yield* answerOne(body.value))
      }))

    const faucet = HttpRouter.add("POST", "/v2/gas", (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const body = yield* Effect.option(request.json)
        const decoded = Option.flatMap(body, Schema.decodeUnknownOption(FaucetRequest))
        // The client reads `status.Failure.internal` on anything but Success.
        if (Option.isNone(decoded)) {
          return HttpServerResponse.jsonUnsafe({ status: { Failure: { internal: "expected {\"FixedAmountRequest\":{\"recipient\":\"0x…\"}}" } } }, { status: 400 })
        }
        const coin = yield* Effect.option(ledger.mint(decoded.value.FixedAmountRequest.recipient, SUI_COIN_TYPE, FAUCET_AMOUNT))
        return Option.match(coin, {
          onNone: () => HttpServerResponse.jsonUnsafe({ status: { Failure: { internal: "the local ledger is unavailable" } } }, { status: 503 }),
          onSome: (c) =>
            HttpServerResponse.jsonUnsafe({
              status: "Success",
              // A mint is not a transaction on this ledger; the digest names the mint, it cannot be fetched.
              coins_sent: [{ amount: Number(FAUCET_AMOUNT), id: c.id, transferTxDigest: toBase58(blake2b(fromHex(c.id), { dkLen: 32 })) }]
            })
        })
      }))

    return Layer.mergeAll(rpc, faucet)
  })
)
