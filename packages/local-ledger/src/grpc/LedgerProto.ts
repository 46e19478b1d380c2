import { GrpcTypes } from "@mysten/sui/grpc"
import { normalizeStructTag, normalizeSuiAddress, parseStructTag, toHex } from "@mysten/sui/utils"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "@gateway/chain/Base64"
import type { Execution, ExecutionStatus } from "../Execution.ts"
import { type CleverError, cleverErrorOf } from "../execute/FrameworkAborts.ts"
import type { LedgerCheckpoint } from "../LedgerCheckpoint.ts"
import { type LedgerObject, objectBcs, objectContentsOf, objectType, type Owner } from "../LedgerObject.ts"
import type { LedgerTransaction } from "../LocalLedger.ts"
import { transactionProto } from "./TransactionProto.ts"

const { Owner_OwnerKind: OwnerKind, ChangedObject_InputObjectState: InputState, ChangedObject_OutputObjectState: OutputState, ChangedObject_IdOperation: IdOperation } = GrpcTypes

const timestamp = (ms: bigint) => ({ seconds: ms / 1000n, nanos: Number(ms % 1000n) * 1_000_000 })

export const ownerProto = (owner: Owner): GrpcTypes.Owner => {
  switch (owner._tag) {
    case "Address":
      return { kind: OwnerKind.ADDRESS, address: owner.address }
    case "Shared":
      return { kind: OwnerKind.SHARED, version: owner.initialSharedVersion }
    case "Immutable":
      return { kind: OwnerKind.IMMUTABLE }
  }
}

/** The object's Move type as a node writes it (`0x2::coin::Coin<…>` for every coin). */
const typeOf = (object: LedgerObject, originalId: string) => objectType(object.data, originalId)

/** Every field a full node can give about an object version; `nowMs` is what the Clock reads. */
export const objectProto = (object: LedgerObject, originalId: string, nowMs: bigint): GrpcTypes.Object => ({
  bcs: { name: "Object", value: objectBcs(object, originalId, nowMs) },
  objectId: object.id,
  version: object.version,
  digest: object.digest,
  owner: ownerProto(object.owner),
  objectType: typeOf(object, originalId),
  hasPublicTransfer: object.data._tag === "Coin",
  contents: { name: typeOf(object, originalId), value: objectContentsOf(object, originalId, nowMs) },
  previousTransaction: object.previousTransaction,
  storageRebate: object.storageRebate,
  ...(object.data._tag === "Coin" ? { balance: object.data.balance } : {})
})

const errorKinds: Readonly<Record<string, number | string>> = GrpcTypes.ExecutionError_ExecutionErrorKind
const argumentErrorKinds: Readonly<Record<string, number | string>> = GrpcTypes.CommandArgumentError_CommandArgumentErrorKind

/** `InsufficientCoinBalance` → `INSUFFICIENT_COIN_BALANCE`: the proto enums spell Sui's variant names that way. */
const screaming = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()

const enumValue = (values: Readonly<Record<string, number | string>>, name: string): number => {
  const value = values[screaming(name)]
  return typeof value === "number" ? value : 0
}

/** A clever error as a full node renders it: no `constant_type`, the value as text. */
const cleverErrorProto = (clever: CleverError): GrpcTypes.CleverError => ({
  ...(clever.errorCode === undefined ? {} : { errorCode: BigInt(clever.errorCode) }),
  lineNumber: BigInt(clever.lineNumber),
  constantName: clever.constantName,
  value: { oneofKind: "rendered", rendered: clever.rendered }
})

/** Sui's status as the gRPC API reports it: the error's kind, command, description and details. */
export const statusProto = (status: ExecutionStatus, description: string | null): GrpcTypes.ExecutionStatus => {
  if (!("Failure" in status) || status.Failure === undefined) return { success: true }
  const { error, command } = status.Failure
  const [name = ""] = Object.keys(error).filter((key) => key !== "$kind")
  const base = {
    description: description ?? name,
    ...(command === null || command === undefined ? {} : { command: BigInt(command) }),
    kind: enumValue(errorKinds, name)
  }
  if ("MoveAbort" in error && error.MoveAbort !== undefined) {
    const [location, code] = error.MoveAbort
    const clever = cleverErrorOf(error.MoveAbort)
    return {
      success: false,
      error: {
        ...base,
        errorDetails: {
          oneofKind: "abort",
          abort: {
            abortCode: BigInt(code),
            location: {
              package: normalizeSuiAddress(typeof location.module.address === "string" ? location.module.address : toHex(location.module.address)),
              module: location.module.name,
              function: Number(location.function),
              instruction: Number(location.instruction),
              ...(location.functionName === null || location.functionName === undefined ? {} : { functionName: location.functionName })
            },
            ...(clever === undefined ? {} : { cleverError: cleverErrorProto(clever) })
          }
        }
      }
    }
  }
  if ("CommandArgumentError" in error && error.CommandArgumentError !== undefined) {
    const { argIdx, kind } = error.CommandArgumentError
    const [kindName = ""] = Object.keys(kind).filter((key) => key !== "$kind")
    return {
      success: false,
      error: { ...base, errorDetails: { oneofKind: "commandArgumentError", commandArgumentError: { argument: Number(argIdx), kind: enumValue(argumentErrorKinds, kindName) } } }
    }
  }
  return { success: false, error: { ...base, errorDetails: { oneofKind: undefined } } }
}

const changedObjectProto = (change: Execution["changes"][number], originalId: string): GrpcTypes.ChangedObject => {
  const { before, after } = change
  const type = after ?? before
  return {
    objectId: change.id,
    inputState: before === undefined ? InputState.DOES_NOT_EXIST : InputState.EXISTS,
    ...(before === undefined ? {} : { inputVersion: before.version, inputDigest: before.digest, inputOwner: ownerProto(before.owner) }),
    outputState: after === undefined ? OutputState.DOES_NOT_EXIST : OutputState.OBJECT_WRITE,
    ...(after === undefined ? {} : { outputVersion: after.version, outputDigest: after.digest, outputOwner: ownerProto(after.owner) }),
    idOperation: before === undefined ? IdOperation.CREATED : after === undefined ? IdOperation.DELETED : IdOperation.NONE,
    ...(type === undefined ? {} : { objectType: typeOf(type, originalId) })
  }
}

/** The effects, structured as the SDK reads them and as BCS. */
const effectsProto = (tx: LedgerTransaction, originalId: string): GrpcTypes.TransactionEffects => {
  const { execution } = tx
  const changed = [...execution.changes].sort((a, b) => a.id.localeCompare(b.id)).map((change) => changedObjectProto(change, originalId))
  const gasObject = changed.find((change) => change.objectId === execution.gasObjectId)
  return {
    bcs: { name: "TransactionEffects", value: tx.effects },
    digest: tx.effectsDigest,
    version: 2,
    status: statusProto(execution.status, tx.error),
    epoch: execution.epoch,
    gasUsed: execution.gasUsed,
    transactionDigest: tx.digest,
    ...(gasObject === undefined ? {} : { gasObject }),
    ...(tx.eventsRecord === undefined ? {} : { eventsDigest: tx.eventsRecord.digest }),
    dependencies: [],
    lamportVersion: execution.lamportVersion,
    changedObjects: changed,
    unchangedConsensusObjects: execution.unchangedShared.map((object) => ({
      kind: GrpcTypes.UnchangedConsensusObject_UnchangedConsensusObjectKind.READ_ONLY_ROOT,
      objectId: object.id,
      version: object.version,
      digest: object.digest,
      objectType: typeOf(object, originalId)
    })),
    unchangedLoadedRuntimeObjects: []
  }
}

const eventsProto = (tx: LedgerTransaction, publishedAt: string): GrpcTypes.TransactionEvents | undefined =>
  tx.eventsRecord === undefined ? undefined : {
    bcs: { name: "TransactionEvents", value: tx.eventsRecord.bcs },
    digest: tx.eventsRecord.digest,
    events: tx.events.map((event, index) => {
      const type = parseStructTag(normalizeStructTag(event.type))
      return {
        packageId: normalizeSuiAddress(publishedAt),
        module: type.module,
        sender: normalizeSuiAddress(event.sender),
        eventType: normalizeStructTag(event.type),
        contents: { name: normalizeStructTag(event.type), value: decodeBase64(event.bcs) },
        transactionDigest: tx.digest,
        eventIndex: index,
        ...(tx.checkpoint === null ? {} : { checkpoint: tx.checkpoint })
      }
    })
  }

/**
 * Everything a full node answers about an executed transaction; the read
 * mask then keeps what was asked. `objects` holds each changed object's
 * output version. With `fields` (see `maskedFields`), the costly fields the
 * mask would drop are not built: what it keeps is the same.
 */
export const executedTransactionProto = (
  tx: LedgerTransaction,
  pkg: { readonly originalId: string; readonly publishedAt: string },
  fields?: ReadonlySet<string>
): GrpcTypes.ExecutedTransaction => {
  const wants = (field: keyof GrpcTypes.ExecutedTransaction) => fields === undefined || fields.has(field)
  const events = wants("events") ? eventsProto(tx, pkg.publishedAt) : undefined
  return {
    digest: tx.digest,
    ...(wants("transaction") ? { transaction: transactionProto(tx.data, tx.bcs, tx.digest) } : {}),
    signatures: wants("signatures")
      ? tx.signatures.map((signature) => ({ bcs: { name: "UserSignatureBytes", value: signature }, signature: { oneofKind: undefined } }))
      : [],
    ...(wants("effects") ? { effects: effectsProto(tx, pkg.originalId) } : {}),
    ...(events === undefined ? {} : { events }),
    // A full node knows neither until a checkpoint includes the transaction.
    ...(tx.checkpoint === null ? {} : { checkpoint: tx.checkpoint }),
    ...(tx.timestampMs === null ? {} : { timestamp: timestamp(tx.timestampMs) }),
    balanceChanges: wants("balanceChanges")
      ? tx.balanceChanges.map((change) => ({
        address: change.address,
        coinType: normalizeCoinType(change.coinType),
        amount: change.amount.toString()
      }))
      : [],
    ...(wants("objects")
      ? {
        objects: {
          objects: tx.execution.changes.flatMap((change) => (change.after === undefined ? [] : [objectProto(change.after, pkg.originalId, tx.executedAtMs)]))
        }
      }
      : {})
  }
}

/** A checkpoint with its summary, contents and transactions (the read mask decides how much of each). */
export const checkpointProto = (checkpoint: LedgerCheckpoint, transactions: ReadonlyArray<GrpcTypes.ExecutedTransaction>): GrpcTypes.Checkpoint => ({
  sequenceNumber: checkpoint.sequenceNumber,
  digest: checkpoint.digest,
  summary: {
    bcs: { name: "CheckpointSummary", value: checkpoint.summaryBcs },
    digest: checkpoint.digest,
    epoch: checkpoint.epoch,
    sequenceNumber: checkpoint.sequenceNumber,
    totalNetworkTransactions: checkpoint.networkTotalTransactions,
    contentDigest: checkpoint.contentDigest,
    ...(checkpoint.previousDigest === undefined ? {} : { previousDigest: checkpoint.previousDigest }),
    epochRollingGasCostSummary: { computationCost: 0n, storageCost: 0n, storageRebate: 0n, nonRefundableStorageFee: 0n },
    timestamp: timestamp(checkpoint.timestampMs),
    commitments: [],
    versionSpecificData: new Uint8Array()
  },
  contents: {
    bcs: { name: "CheckpointContents", value: checkpoint.contentsBcs },
    digest: checkpoint.contentDigest,
    version: 1,
    transactions: []
  },
  transactions: [...transactions]
})

export { timestamp }
