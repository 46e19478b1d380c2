import type { bcs } from "@mysten/sui/bcs"
import { GrpcTypes } from "@mysten/sui/grpc"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { CLOCK_OBJECT_ID } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "@gateway/chain/Base64"
import type { LedgerObject } from "../LedgerObject.ts"
import type { TransactionData } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"

type ProgrammableTransaction = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type CallArg = ProgrammableTransaction["inputs"][number]
type Command = ProgrammableTransaction["commands"][number]
type Argument = NonNullable<Command["SplitCoins"]>["coin"]
type TransactionDataInput = Parameters<typeof bcs.TransactionData.serialize>[0]
type KindInput = Extract<TransactionDataInput, { V1: unknown }>["V1"]["kind"]
type ProgrammableInput = Extract<KindInput, { ProgrammableTransaction: unknown }>["ProgrammableTransaction"]
type CallArgInput = ProgrammableInput["inputs"] extends Iterable<infer A> ? A : never
type CommandInput = ProgrammableInput["commands"] extends Iterable<infer C> ? C : never
type ArgumentInput = Extract<CommandInput, { SplitCoins: unknown }>["SplitCoins"]["coin"]
type ExpirationInput = Extract<TransactionDataInput, { V1: unknown }>["V1"]["expiration"]

const {
  Argument_ArgumentKind: ArgumentKind,
  Input_InputKind: InputKind,
  TransactionExpiration_TransactionExpirationKind: ExpirationKind,
  FundsWithdrawal_Source: FundsSource
} = GrpcTypes

const millis = (ms: string | number | bigint | null) =>
  ms === null ? undefined : { seconds: BigInt(ms) / 1000n, nanos: Number(BigInt(ms) % 1000n) * 1_000_000 }
const fromMillis = (timestamp: { readonly seconds: bigint; readonly nanos: number } | undefined) =>
  timestamp === undefined ? null : (timestamp.seconds * 1000n + BigInt(Math.floor(timestamp.nanos / 1_000_000))).toString()

// === Ledger (BCS) → proto ===

const argumentProto = (argument: Argument): GrpcTypes.Argument => {
  if (argument.$kind === "GasCoin") return { kind: ArgumentKind.GAS }
  if (argument.$kind === "Input") return { kind: ArgumentKind.INPUT, input: argument.Input }
  if (argument.$kind === "Result") return { kind: ArgumentKind.RESULT, result: argument.Result }
  return { kind: ArgumentKind.RESULT, result: argument.NestedResult[0], subresult: argument.NestedResult[1] }
}

const inputProto = (input: CallArg): GrpcTypes.Input => {
  if (input.$kind === "Pure") return { kind: InputKind.PURE, pure: decodeBase64(input.Pure.bytes) }
  if (input.$kind === "Object") {
    const object = input.Object
    if (object.$kind === "SharedObject") {
      return {
        kind: InputKind.SHARED,
        objectId: object.SharedObject.objectId,
        version: BigInt(object.SharedObject.initialSharedVersion),
        mutable: object.SharedObject.mutable
      }
    }
    const ref = object.$kind === "ImmOrOwnedObject" ? object.ImmOrOwnedObject : object.Receiving
    return { kind: object.$kind === "ImmOrOwnedObject" ? InputKind.IMMUTABLE_OR_OWNED : InputKind.RECEIVING, objectId: ref.objectId, version: BigInt(ref.version), digest: ref.digest }
  }
  if (input.$kind === "FundsWithdrawal") {
    const { reservation, typeArg, withdrawFrom } = input.FundsWithdrawal
    return {
      kind: InputKind.FUNDS_WITHDRAWAL,
      fundsWithdrawal: {
        amount: BigInt(reservation.MaxAmountU64),
        coinType: typeArg.Balance,
        ...(withdrawFrom.$kind === "SenderAllowance"
          ? { source: FundsSource.SENDER_ALLOWANCE, funder: withdrawFrom.SenderAllowance.funder, allowance: withdrawFrom.SenderAllowance.allowance }
          : { source: withdrawFrom.$kind === "Sponsor" ? FundsSource.SPONSOR : FundsSource.SENDER })
      }
    }
  }
  return { kind: InputKind.INPUT_KIND_UNKNOWN }
}

const commandProto = (command: Command): GrpcTypes.Command => {
  switch (command.$kind) {
    case "MoveCall":
      return {
        command: {
          oneofKind: "moveCall",
          moveCall: {
            package: command.MoveCall.package,
            module: command.MoveCall.module,
            function: command.MoveCall.function,
            typeArguments: [...command.MoveCall.typeArguments],
            arguments: command.MoveCall.arguments.map(argumentProto)
          }
        }
      }
    case "TransferObjects":
      return {
        command: {
          oneofKind: "transferObjects",
          transferObjects: { objects: command.TransferObjects.objects.map(argumentProto), address: argumentProto(command.TransferObjects.address) }
        }
      }
    case "SplitCoins":
      return {
        command: { oneofKind: "splitCoins", splitCoins: { coin: argumentProto(command.SplitCoins.coin), amounts: command.SplitCoins.amounts.map(argumentProto) } }
      }
    case "MergeCoins":
      return {
        command: {
          oneofKind: "mergeCoins",
          mergeCoins: { coin: argumentProto(command.MergeCoins.destination), coinsToMerge: command.MergeCoins.sources.map(argumentProto) }
        }
      }
    case "MakeMoveVec":
      return {
        command: {
          oneofKind: "makeMoveVector",
          makeMoveVector: { ...(command.MakeMoveVec.type === null ? {} : { elementType: command.MakeMoveVec.type }), elements: command.MakeMoveVec.elements.map(argumentProto) }
        }
      }
    default:
      // Publish and Upgrade never execute on this ledger, so no stored transaction holds one.
      return { command: { oneofKind: undefined } }
  }
}

/** An expiration as the proto spells it: a `ValidDuring` window's max epoch goes in `epoch`. */
const expirationProto = (expiration: TransactionData["V1"]["expiration"]): GrpcTypes.TransactionExpiration => {
  switch (expiration.$kind) {
    case "Epoch":
      return { kind: ExpirationKind.EPOCH, epoch: BigInt(expiration.Epoch) }
    case "ValidDuring": {
      const window = expiration.ValidDuring
      const minTimestamp = millis(window.minTimestamp)
      const maxTimestamp = millis(window.maxTimestamp)
      return {
        kind: ExpirationKind.VALID_DURING,
        ...(window.minEpoch === null ? {} : { minEpoch: BigInt(window.minEpoch) }),
        ...(window.maxEpoch === null ? {} : { epoch: BigInt(window.maxEpoch) }),
        ...(minTimestamp === undefined ? {} : { minTimestamp }),
        ...(maxTimestamp === undefined ? {} : { maxTimestamp }),
        chain: window.chain,
        nonce: window.nonce
      }
    }
    default:
      return { kind: ExpirationKind.NONE }
  }
}

/** A transaction as a full node describes it: BCS, digest, sender, gas, expiration and the programmable kind. */
export const transactionProto = (data: TransactionData, bytes: Uint8Array, digest: string): GrpcTypes.Transaction => {
  const tx = data.V1
  const pt = tx.kind.ProgrammableTransaction
  return {
    bcs: { name: "TransactionData", value: bytes },
    digest,
    version: 1,
    kind: pt === undefined || pt === null
      ? { data: { oneofKind: undefined } }
      : {
        kind: GrpcTypes.TransactionKind_Kind.PROGRAMMABLE_TRANSACTION,
        data: { oneofKind: "programmableTransaction", programmableTransaction: { inputs: pt.inputs.map(inputProto), commands: pt.commands.map(commandProto) } }
      },
    sender: normalizeSuiAddress(tx.sender),
    gasPayment: {
      objects: tx.gasData.payment.map((ref) => ({ objectId: ref.objectId, version: BigInt(ref.version), digest: ref.digest })),
      owner: normalizeSuiAddress(tx.gasData.owner),
      price: BigInt(tx.gasData.price),
      budget: BigInt(tx.gasData.budget)
    },
    expiration: expirationProto(tx.expiration)
  }
}

// === Proto → ledger (BCS input) ===

const invalid = (message: string) => new GrpcFailure({ code: "INVALID_ARGUMENT", message })

const argumentInput = (argument: GrpcTypes.Argument | undefined): ArgumentInput => {
  switch (argument?.kind) {
    case ArgumentKind.GAS:
      return { GasCoin: true }
    case ArgumentKind.INPUT:
      return { Input: argument.input ?? 0 }
    case ArgumentKind.RESULT:
      return argument.subresult === undefined ? { Result: argument.result ?? 0 } : { NestedResult: [argument.result ?? 0, argument.subresult] }
    default:
      throw invalid("an argument has no kind")
  }
}

/**
 * An input as a full node resolves it: complete ones as given, an object
 * named only by id from the ledger's current state (shared ones mutable
 * unless said otherwise, the Clock always immutable).
 */
const callArgInput = (input: GrpcTypes.Input, lookup: (id: string) => LedgerObject | undefined): CallArgInput => {
  switch (input.kind) {
    case InputKind.PURE:
      return { Pure: { bytes: input.pure ?? new Uint8Array() } }
    case InputKind.IMMUTABLE_OR_OWNED:
    case InputKind.RECEIVING: {
      if (input.objectId === undefined || input.version === undefined || input.digest === undefined) throw invalid("an owned input needs id, version and digest")
      const ref = { objectId: input.objectId, version: input.version, digest: input.digest }
      return input.kind === InputKind.RECEIVING ? { Object: { Receiving: ref } } : { Object: { ImmOrOwnedObject: ref } }
    }
    case InputKind.FUNDS_WITHDRAWAL: {
      const funds = input.fundsWithdrawal
      if (funds?.amount === undefined || funds.coinType === undefined) throw invalid("a funds withdrawal needs an amount and a coin type")
      if (funds.source === FundsSource.SENDER_ALLOWANCE) throw invalid("withdrawals under an allowance are not supported by the local ledger")
      return {
        FundsWithdrawal: {
          reservation: { MaxAmountU64: funds.amount },
          typeArg: { Balance: funds.coinType },
          withdrawFrom: funds.source === FundsSource.SPONSOR ? { Sponsor: true } : { Sender: true }
        }
      }
    }
    case InputKind.SHARED: {
      if (input.objectId === undefined || input.version === undefined) throw invalid("a shared input needs id and initial shared version")
      return { Object: { SharedObject: { objectId: input.objectId, initialSharedVersion: input.version, mutable: input.mutable ?? true } } }
    }
    default: {
      if (input.objectId === undefined) throw invalid("an input has no kind and no object id")
      const id = normalizeSuiAddress(input.objectId)
      const object = lookup(id)
      if (object === undefined) throw invalid(`object ${id} does not exist`)
      if (object.owner._tag === "Shared") {
        return { Object: { SharedObject: { objectId: id, initialSharedVersion: object.owner.initialSharedVersion, mutable: id !== CLOCK_OBJECT_ID && (input.mutable ?? true) } } }
      }
      return { Object: { ImmOrOwnedObject: { objectId: id, version: object.version, digest: object.digest } } }
    }
  }
}

const commandInput = (command: GrpcTypes.Command): CommandInput => {
  const c = command.command
  switch (c.oneofKind) {
    case "moveCall":
      return {
        MoveCall: {
          package: c.moveCall.package ?? "",
          module: c.moveCall.module ?? "",
          function: c.moveCall.function ?? "",
          typeArguments: c.moveCall.typeArguments,
          arguments: c.moveCall.arguments.map(argumentInput)
        }
      }
    case "transferObjects":
      return { TransferObjects: { objects: c.transferObjects.objects.map(argumentInput), address: argumentInput(c.transferObjects.address) } }
    case "splitCoins":
      return { SplitCoins: { coin: argumentInput(c.splitCoins.coin), amounts: c.splitCoins.amounts.map(argumentInput) } }
    case "mergeCoins":
      return { MergeCoins: { destination: argumentInput(c.mergeCoins.coin), sources: c.mergeCoins.coinsToMerge.map(argumentInput) } }
    case "makeMoveVector":
      return { MakeMoveVec: { type: c.makeMoveVector.elementType ?? null, elements: c.makeMoveVector.elements.map(argumentInput) } }
    default:
      throw invalid(`command ${c.oneofKind ?? "(none)"} is not supported by the local ledger`)
  }
}

const expirationInput = (expiration: GrpcTypes.TransactionExpiration | undefined): ExpirationInput => {
  switch (expiration?.kind) {
    case undefined:
    case ExpirationKind.TRANSACTION_EXPIRATION_KIND_UNKNOWN:
    case ExpirationKind.NONE:
      return { None: true }
    case ExpirationKind.EPOCH:
      return { Epoch: (expiration.epoch ?? 0n).toString() }
    case ExpirationKind.VALID_DURING:
      return {
        ValidDuring: {
          minEpoch: expiration.minEpoch ?? null,
          maxEpoch: expiration.epoch ?? null,
          minTimestamp: fromMillis(expiration.minTimestamp),
          maxTimestamp: fromMillis(expiration.maxTimestamp),
          chain: expiration.chain ?? "",
          nonce: expiration.nonce ?? 0
        }
      }
    default:
      throw invalid("only None, Epoch and ValidDuring expirations are supported by the local ledger")
  }
}

/** The parts of a structured transaction the ledger completes: the programmable kind, sender, expiration and what gas it names. */
export const transactionFromProto = (transaction: GrpcTypes.Transaction, lookup: (id: string) => LedgerObject | undefined) => {
  const data = transaction.kind?.data
  if (data?.oneofKind !== "programmableTransaction") throw invalid("only programmable transactions are supported")
  if (transaction.sender === undefined) throw invalid("the transaction has no sender")
  const sender = normalizeSuiAddress(transaction.sender)
  const kind: KindInput = {
    ProgrammableTransaction: {
      inputs: data.programmableTransaction.inputs.map((input) => callArgInput(input, lookup)),
      commands: data.programmableTransaction.commands.map(commandInput)
    }
  }
  const gas = transaction.gasPayment
  return {
    sender,
    kind,
    expiration: expirationInput(transaction.expiration),
    gasOwner: normalizeSuiAddress(gas?.owner ?? sender),
    payment: (gas?.objects ?? []).map((ref) => {
      if (ref.objectId === undefined || ref.version === undefined || ref.digest === undefined) throw invalid("a gas payment needs id, version and digest")
      return { objectId: ref.objectId, version: ref.version.toString(), digest: ref.digest }
    }),
    price: gas?.price,
    budget: gas?.budget
  }
}
