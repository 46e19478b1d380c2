import { GrpcStatusCode, GrpcTypes } from "@mysten/sui/grpc"
import { Effect } from "effect"
import { LocalLedger, type LedgerTransaction } from "../LocalLedger.ts"
import { epochProto } from "./EpochProto.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { type GrpcMethod, unary } from "./GrpcMethod.ts"
import { checkpointProto, executedTransactionProto, objectProto, timestamp } from "./LedgerProto.ts"
import { applyReadMask, maskedFields } from "./ReadMask.ts"

/** A full node's default read masks. */
export const OBJECT_DEFAULT_MASK = ["object_id", "version", "digest"]
export const TRANSACTION_DEFAULT_MASK = ["digest"]
const CHECKPOINT_DEFAULT_MASK = ["sequence_number", "digest"]
const EPOCH_DEFAULT_MASK = ["epoch", "first_checkpoint", "last_checkpoint", "start", "end", "reference_gas_price"]

const notFound = (message: string) => new GrpcFailure({ code: "NOT_FOUND", message })
const required = (field: string) => new GrpcFailure({ code: "INVALID_ARGUMENT", message: `missing ${field}` })

/** An object's current version, or NOT_FOUND (the ledger keeps no past versions). */
const findObject = (request: GrpcTypes.GetObjectRequest, mask: GrpcTypes.GetObjectRequest["readMask"]) =>
  Effect.gen(function*() {
    if (request.objectId === undefined) return yield* required("object_id")
    const ledger = yield* LocalLedger
    const object = yield* ledger.getObject(request.objectId)
    if (object === undefined || (request.version !== undefined && request.version !== object.version)) {
      return yield* notFound(`object ${request.objectId}${request.version === undefined ? "" : ` at version ${request.version}`} not found`)
    }
    const nowMs = BigInt(yield* ledger.now)
    return applyReadMask(objectProto(object, ledger.config.pkg.originalId, nowMs), mask, OBJECT_DEFAULT_MASK)
  })

/** Everything known about a transaction, before any read mask; with `fields`, only as much as the mask keeps. */
export const fullTransaction = (tx: LedgerTransaction, fields?: ReadonlySet<string>) =>
  LocalLedger.useSync((ledger) => executedTransactionProto(tx, ledger.config.pkg, fields))

export const executedTransaction = (tx: LedgerTransaction, mask: GrpcTypes.GetTransactionRequest["readMask"]) =>
  Effect.map(fullTransaction(tx, maskedFields(mask, TRANSACTION_DEFAULT_MASK, "")), (full) => applyReadMask(full, mask, TRANSACTION_DEFAULT_MASK))

const findTransaction = (digest: string | undefined, mask: GrpcTypes.GetTransactionRequest["readMask"]) =>
  Effect.gen(function*() {
    if (digest === undefined) return yield* required("digest")
    const tx = yield* (yield* LocalLedger).getTransaction(digest)
    if (tx === undefined) return yield* notFound(`Transaction ${digest} not found`)
    return yield* executedTransaction(tx, mask)
  })

/** A checkpoint with its transactions, masked as a whole (`transactions.effects` and so on). */
export const checkpointMessage = (sequenceNumber: bigint, mask: GrpcTypes.GetCheckpointRequest["readMask"]) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const checkpoint = yield* ledger.getCheckpoint(sequenceNumber)
    if (checkpoint === undefined) return yield* notFound(`checkpoint ${sequenceNumber} not found`)
    const transactions = yield* Effect.forEach(checkpoint.transactions, (digest) =>
      Effect.flatMap(ledger.getTransaction(digest), (tx) => (tx === undefined ? Effect.succeed([]) : Effect.map(fullTransaction(tx), (m) => [m])))
    )
    const full = checkpointProto(checkpoint, transactions.flat())
    return applyReadMask(full, mask, CHECKPOINT_DEFAULT_MASK)
  })

const statusOf = (failure: GrpcFailure) => ({ code: GrpcStatusCode[failure.code], message: failure.message, details: [] })

export const ledgerMethods: ReadonlyArray<GrpcMethod> = [
  unary(GrpcTypes.LedgerService, "GetServiceInfo", GrpcTypes.GetServiceInfoRequest, GrpcTypes.GetServiceInfoResponse, () =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const genesis = yield* ledger.getCheckpoint(0n)
      const latest = yield* ledger.latestCheckpoint
      const { epoch } = yield* ledger.currentEpoch
      return {
        ...(genesis === undefined ? {} : { chainId: genesis.digest }),
        chain: ledger.config.network,
        epoch,
        checkpointHeight: latest.sequenceNumber,
        timestamp: timestamp(latest.timestampMs),
        lowestAvailableCheckpoint: 0n,
        lowestAvailableCheckpointObjects: 0n,
        server: "gateway-local-ledger"
      }
    })),
  unary(GrpcTypes.LedgerService, "GetObject", GrpcTypes.GetObjectRequest, GrpcTypes.GetObjectResponse, (request) =>
    Effect.map(findObject(request, request.readMask), (object) => ({ object }))),
  unary(GrpcTypes.LedgerService, "BatchGetObjects", GrpcTypes.BatchGetObjectsRequest, GrpcTypes.BatchGetObjectsResponse, (request) =>
    Effect.map(
      Effect.forEach(request.requests, (one) =>
        findObject(one, request.readMask).pipe(
          Effect.map((object): GrpcTypes.GetObjectResult => ({ result: { oneofKind: "object", object } })),
          Effect.catchTag("GrpcFailure", (failure) => Effect.succeed<GrpcTypes.GetObjectResult>({ result: { oneofKind: "error", error: statusOf(failure) } }))
        )),
      (objects) => ({ objects })
    )),
  unary(GrpcTypes.LedgerService, "GetTransaction", GrpcTypes.GetTransactionRequest, GrpcTypes.GetTransactionResponse, (request) =>
    Effect.map(findTransaction(request.digest, request.readMask), (transaction) => ({ transaction }))),
  unary(GrpcTypes.LedgerService, "BatchGetTransactions", GrpcTypes.BatchGetTransactionsRequest, GrpcTypes.BatchGetTransactionsResponse, (request) =>
    Effect.map(
      Effect.forEach(request.digests, (digest) =>
        findTransaction(digest, request.readMask).pipe(
          Effect.map((transaction): GrpcTypes.GetTransactionResult => ({ result: { oneofKind: "transaction", transaction } })),
          Effect.catchTag("GrpcFailure", (failure) => Effect.succeed<GrpcTypes.GetTransactionResult>({ result: { oneofKind: "error", error: statusOf(failure) } }))
        )),
      (transactions) => ({ transactions })
    )),
  unary(GrpcTypes.LedgerService, "GetCheckpoint", GrpcTypes.GetCheckpointRequest, GrpcTypes.GetCheckpointResponse, (request) =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const id = request.checkpointId
      let sequenceNumber = (yield* ledger.latestCheckpoint).sequenceNumber
      if (id.oneofKind === "sequenceNumber") sequenceNumber = id.sequenceNumber
      if (id.oneofKind === "digest") {
        const latest = (yield* ledger.latestCheckpoint).sequenceNumber
        let found: bigint | undefined
        for (let seq = 0n; seq <= latest && found === undefined; seq++) {
          if ((yield* ledger.getCheckpoint(seq))?.digest === id.digest) found = seq
        }
        if (found === undefined) return yield* notFound(`checkpoint ${id.digest} not found`)
        sequenceNumber = found
      }
      return { checkpoint: yield* checkpointMessage(sequenceNumber, request.readMask) }
    })),
  unary(GrpcTypes.LedgerService, "GetEpoch", GrpcTypes.GetEpochRequest, GrpcTypes.GetEpochResponse, (request) =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      // No epoch named means the current one; a past one's system state is as it began, as a full node answers it.
      const epoch = request.epoch === undefined ? yield* ledger.currentEpoch : yield* ledger.getEpoch(request.epoch)
      if (epoch === undefined) return yield* notFound(`epoch ${request.epoch} not found`)
      return { epoch: applyReadMask(epochProto(epoch), request.readMask, EPOCH_DEFAULT_MASK) }
    }))
]
