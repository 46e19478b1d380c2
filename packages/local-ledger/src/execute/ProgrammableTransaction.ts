import { bcs } from "@mysten/sui/bcs"
import { fromBase58, normalizeSuiAddress } from "@mysten/sui/utils"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { encodeBase64 } from "@gateway/chain/Base64"
import { addressLayout, decodeExactly, type PureLayout, u64Layout } from "@gateway/chain/PureArgument"
import type { Execution, ExecutionFailure, ObjectReader } from "../Execution.ts"
import { deriveObjectId } from "@gateway/chain/ObjectIds"
import { type CoinData, type ObjectData, type Owner } from "../LedgerObject.ts"
import type { AddressBalanceChange } from "./AddressBalances.ts"

export type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
export type ProgrammableTransaction = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type Command = ProgrammableTransaction["commands"][number]
export type MoveCall = NonNullable<Command["MoveCall"]>
export type Argument = MoveCall["arguments"][number]
type CommandArgumentErrorKind = Extract<ExecutionFailure, { CommandArgumentError: unknown }>["CommandArgumentError"]["kind"]

export const U64_MAX = 2n ** 64n - 1n
const gasCoinType = normalizeCoinType(SUI_COIN_TYPE)

/** Execution stops: the transaction fails with `error` at the command that raised it. */
export class Failed {
  readonly error: ExecutionFailure
  constructor(error: ExecutionFailure) {
    this.error = error
  }
}

export const argumentError = (argIdx: number, kind: CommandArgumentErrorKind) => new Failed({ CommandArgumentError: { argIdx, kind } })

/**
 * A value the transaction holds: an input or result object (mutable says
 * whether it may be borrowed `&mut`), pure bytes, or funds that are no object
 * (a `Withdrawal<Balance<T>>` input, a `Balance<T>`), named by `id` within
 * the transaction.
 */
export type Value =
  | { readonly _tag: "Object"; readonly id: string; readonly mutable: boolean }
  | { readonly _tag: "Pure"; readonly bytes: Uint8Array }
  | { readonly _tag: "Funds"; readonly id: string }

/**
 * Funds held by value: a `0x2::funds_accumulator::Withdrawal<Balance<T>>`
 * (`owner`'s address balance, up to `amount`; it has `drop`) or a
 * `0x2::balance::Balance<T>` (which has not, so it must be consumed).
 */
export interface FundsValue {
  readonly kind: "Withdrawal" | "Balance"
  readonly coinType: string
  readonly amount: bigint
  readonly owner: string
}

/** An object's contents and owner while the transaction runs. */
export interface Working {
  readonly data: ObjectData
  readonly owner: Owner
}

export const decode = <T>(layout: PureLayout<T>, bytes: Uint8Array, argIdx: number): T => {
  const value = decodeExactly(layout, bytes)
  if (value === undefined) throw argumentError(argIdx, { InvalidBCSBytes: true })
  return value
}

/** An object argument still holding a value, with its current state. */
export interface ObjectArgument extends Working {
  readonly id: string
  readonly mutable: boolean
}

/**
 * What a Move call sees of the running transaction, as the Move VM sees it
 * through Sui's adapter: the sender, the arguments' values, and the object
 * store it may read, write, create in, delete from and emit events to.
 */
export interface MoveRuntime {
  readonly sender: string
  /** The version every object this transaction writes gets, and the initial version of those it shares. */
  readonly lamport: bigint
  current(id: string): Working | undefined
  write(id: string, data: ObjectData, owner?: Owner): void
  createObject(id: string, data: ObjectData, owner: Owner): string
  /** `object::new(ctx)`: the transaction's next fresh id. */
  freshId(): string
  destroy(id: string): void
  emit<T>(type: string, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T): void
  pureAt(arg: Argument, argIdx: number): Uint8Array
  objectAt(arg: Argument, argIdx: number): ObjectArgument
  /** A coin taken by value: never the gas coin, which only TransferObjects may move. */
  coinByValue(arg: Argument, argIdx: number): CoinArgument
  /** Funds of `kind` taken by value: they are gone from the transaction once taken. */
  fundsByValue(arg: Argument, argIdx: number, kind: FundsValue["kind"]): FundsValue
  /** Funds a call returns; a `Balance` must be consumed before the transaction ends. */
  makeFunds(funds: FundsValue): Value
  /** A value the running command returns that has no `drop` (a Coin): the transaction fails if it is left unused. */
  mustUse(id: string): void
  /** An accumulator event: a deposit to (positive) or withdrawal from (negative) an address balance. */
  accumulate(change: AddressBalanceChange): void
}

/** A coin argument, with its current contents. */
export interface CoinArgument {
  readonly id: string
  readonly mutable: boolean
  readonly owner: Owner
  readonly coin: CoinData
}

/** Runs one `MoveCall` command; what it returns are the command's results. */
export type CallMove = (call: MoveCall, runtime: MoveRuntime) => ReadonlyArray<Value>

/** An admitted programmable transaction, ready to run. */
export interface Program {
  readonly commands: ProgrammableTransaction["commands"]
  readonly inputs: ReadonlyArray<Value>
  readonly sender: string
  readonly digest: string
  readonly lamport: bigint
  readonly objects: ObjectReader
  /**
   * The gas coin: while the transaction runs it holds the payment's balance less the budget; the other coins are
   * merged into it. None when gas is paid from the address balance, which leaves no `GasCoin` to use.
   */
  readonly gas: { readonly id: string; readonly owner: Owner; readonly balance: bigint; readonly merged: ReadonlyArray<string> } | undefined
  /** The `FundsWithdrawal` inputs, by the id their `Funds` value names. */
  readonly funds: ReadonlyMap<string, FundsValue>
  readonly callMove: CallMove
}

/** What running the commands left: the status, the objects written, deleted and the events emitted. */
export interface Interpretation {
  readonly status: Execution["status"]
  readonly working: ReadonlyMap<string, Working>
  readonly deleted: ReadonlySet<string>
  readonly events: ReadonlyArray<ChainEvent>
  /** The accumulator events of the commands, in order; a failed transaction's are dropped by whoever reads this. */
  readonly addressBalanceChanges: ReadonlyArray<AddressBalanceChange>
}

/**
 * Runs a programmable transaction's commands in order, as Sui's PTB runtime
 * does: arguments resolve to inputs and earlier results, the framework
 * commands (SplitCoins, MergeCoins, TransferObjects) act on coins, and Move
 * calls go to `callMove`. The first failure stops it; a created value left
 * neither consumed nor transferred fails it at the end.
 */
export const interpret = (program: Program): Interpretation => {
  const { sender, objects } = program
  const digestBytes = fromBase58(program.digest)
  const GAS = program.gas?.id

  const working = new Map<string, Working>()
  const deleted = new Set<string>()
  const events: Array<ChainEvent> = []
  const funds = new Map(program.funds)
  const addressBalanceChanges: Array<AddressBalanceChange> = []
  let creations = 0
  let fundsMade = 0
  let commandIdx = 0
  /** Values created in this transaction that must end up consumed or transferred (a Coin has no `drop`): id → where it was made. */
  const dangling = new Map<string, { readonly resultIdx: number; readonly secondaryIdx: number }>()

  const current = (id: string): Working | undefined => {
    if (deleted.has(id)) return undefined
    const touched = working.get(id)
    if (touched !== undefined) return touched
    const stored = objects.get(id)
    return stored === undefined ? undefined : { data: stored.data, owner: stored.owner }
  }
  const write = (id: string, data: ObjectData, owner?: Owner) => {
    const before = current(id)
    if (before === undefined) throw new Failed({ InvariantViolation: true })
    working.set(id, { data, owner: owner ?? before.owner })
  }
  const createObject = (id: string, data: ObjectData, owner: Owner) => {
    working.set(id, { data, owner })
    return id
  }
  const freshId = () => deriveObjectId(digestBytes, creations++)
  const destroy = (id: string) => {
    deleted.add(id)
    dangling.delete(id)
  }
  const emit = <T>(type: string, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T) => {
    events.push({
      type,
      sender,
      parsedJson: JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))),
      bcs: encodeBase64(layout.serialize(value).toBytes())
    })
  }

  if (program.gas !== undefined) {
    working.set(program.gas.id, { data: { _tag: "Coin", coinType: gasCoinType, balance: program.gas.balance }, owner: program.gas.owner })
    for (const id of program.gas.merged) deleted.add(id)
  }

  // === Arguments ===

  const results: Array<ReadonlyArray<Value>> = []
  const resolve = (arg: Argument, argIdx: number): Value => {
    switch (arg.$kind) {
      case "GasCoin":
        // Admission refuses `GasCoin` when gas is paid from the address balance; nothing else lacks one.
        if (GAS === undefined) throw argumentError(argIdx, { TypeMismatch: true })
        return { _tag: "Object", id: GAS, mutable: true }
      case "Input": {
        const v = program.inputs[arg.Input]
        if (v === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: arg.Input } })
        return v
      }
      case "Result": {
        const row = results[arg.Result]
        if (row === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: arg.Result } })
        const [v, ...more] = row
        if (v === undefined || more.length > 0) throw argumentError(argIdx, { InvalidResultArity: { resultIdx: arg.Result } })
        return v
      }
      case "NestedResult": {
        const [i, j] = arg.NestedResult
        const row = results[i]
        if (row === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: i } })
        const v = row[j]
        if (v === undefined) throw argumentError(argIdx, { SecondaryIndexOutOfBounds: { resultIdx: i, secondaryIdx: j } })
        return v
      }
      default:
        throw argumentError(argIdx, { TypeMismatch: true })
    }
  }
  const pureAt = (arg: Argument, argIdx: number) => {
    const v = resolve(arg, argIdx)
    if (v._tag !== "Pure") throw argumentError(argIdx, { TypeMismatch: true })
    return v.bytes
  }
  const objectAt = (arg: Argument, argIdx: number): ObjectArgument => {
    const v = resolve(arg, argIdx)
    if (v._tag === "Funds") throw argumentError(argIdx, { TypeMismatch: true })
    if (v._tag !== "Object") throw argumentError(argIdx, { InvalidUsageOfPureArg: true })
    const state = current(v.id)
    if (state === undefined) throw argumentError(argIdx, { ArgumentWithoutValue: true })
    return { id: v.id, mutable: v.mutable, ...state }
  }
  const coinAt = (arg: Argument, argIdx: number): CoinArgument => {
    const object = objectAt(arg, argIdx)
    if (object.data._tag !== "Coin") throw argumentError(argIdx, { TypeMismatch: true })
    return { id: object.id, mutable: object.mutable, owner: object.owner, coin: object.data }
  }
  const coinByValue = (arg: Argument, argIdx: number) => {
    const coin = coinAt(arg, argIdx)
    if (coin.id === GAS) throw argumentError(argIdx, { InvalidGasCoinUsage: true })
    return coin
  }

  const fundsByValue = (arg: Argument, argIdx: number, kind: FundsValue["kind"]): FundsValue => {
    const v = resolve(arg, argIdx)
    if (v._tag !== "Funds") throw argumentError(argIdx, { TypeMismatch: true })
    const held = funds.get(v.id)
    if (held === undefined) throw argumentError(argIdx, { ArgumentWithoutValue: true })
    if (held.kind !== kind) throw argumentError(argIdx, { TypeMismatch: true })
    funds.delete(v.id)
    dangling.delete(v.id)
    return held
  }
  const makeFunds = (value: FundsValue): Value => {
    const id = `funds:${fundsMade++}`
    funds.set(id, value)
    if (value.kind === "Balance") dangling.set(id, { resultIdx: commandIdx, secondaryIdx: 0 })
    return { _tag: "Funds", id }
  }
  const mustUse = (id: string) => {
    dangling.set(id, { resultIdx: commandIdx, secondaryIdx: 0 })
  }
  const accumulate = (change: AddressBalanceChange) => {
    addressBalanceChanges.push(change)
  }

  const runtime: MoveRuntime = {
    sender,
    lamport: program.lamport,
    current,
    write,
    createObject,
    freshId,
    destroy,
    emit,
    pureAt,
    objectAt,
    coinByValue,
    fundsByValue,
    makeFunds,
    mustUse,
    accumulate
  }

  // === Framework commands ===

  const splitCoins = (command: NonNullable<Command["SplitCoins"]>, resultIdx: number): ReadonlyArray<Value> => {
    const source = coinAt(command.coin, 0)
    if (!source.mutable) throw argumentError(0, { InvalidObjectByMutRef: true })
    const amounts = command.amounts.map((a, i) => BigInt(decode(u64Layout, pureAt(a, i + 1), i + 1)))
    let balance = source.coin.balance
    const made = amounts.map((amount, secondaryIdx): Value => {
      if (amount > balance) throw new Failed({ InsufficientCoinBalance: true })
      balance -= amount
      const id = createObject(freshId(), { _tag: "Coin", coinType: source.coin.coinType, balance: amount }, { _tag: "Address", address: sender })
      dangling.set(id, { resultIdx, secondaryIdx })
      return { _tag: "Object", id, mutable: true }
    })
    write(source.id, { ...source.coin, balance })
    return made
  }

  const mergeCoins = (command: NonNullable<Command["MergeCoins"]>): ReadonlyArray<Value> => {
    const destination = coinAt(command.destination, 0)
    if (!destination.mutable) throw argumentError(0, { InvalidObjectByMutRef: true })
    let balance = destination.coin.balance
    command.sources.forEach((a, i) => {
      const source = coinByValue(a, i + 1)
      if (source.id === destination.id) throw argumentError(i + 1, { ArgumentWithoutValue: true })
      if (source.coin.coinType !== destination.coin.coinType) throw argumentError(i + 1, { TypeMismatch: true })
      balance += source.coin.balance
      if (balance > U64_MAX) throw new Failed({ CoinBalanceOverflow: true })
      destroy(source.id)
    })
    write(destination.id, { ...destination.coin, balance })
    return []
  }

  const transferObjects = (command: NonNullable<Command["TransferObjects"]>): ReadonlyArray<Value> => {
    const moved = command.objects.map((a, i) => {
      const object = objectAt(a, i)
      if (object.owner._tag !== "Address") throw argumentError(i, { InvalidObjectByValue: true })
      return object
    })
    const addressIdx = command.objects.length
    const recipient = normalizeSuiAddress(decode(addressLayout, pureAt(command.address, addressIdx), addressIdx))
    for (const object of moved) {
      write(object.id, object.data, { _tag: "Address", address: recipient })
      dangling.delete(object.id)
    }
    return []
  }

  const run = (command: Command, index: number): ReadonlyArray<Value> => {
    if (command.MoveCall) return program.callMove(command.MoveCall, runtime)
    if (command.SplitCoins) return splitCoins(command.SplitCoins, index)
    if (command.MergeCoins) return mergeCoins(command.MergeCoins)
    if (command.TransferObjects) return transferObjects(command.TransferObjects)
    throw new Failed({ FeatureNotYetSupported: true })
  }
  const runAll = (): Execution["status"] => {
    for (const [index, command] of program.commands.entries()) {
      commandIdx = index
      try {
        results.push(run(command, index))
      } catch (error) {
        if (!(error instanceof Failed)) throw error
        return { Failure: { error: error.error, command: index } }
      }
    }
    const [unused] = dangling.values()
    return unused === undefined ? { Success: true } : { Failure: { error: { UnusedValueWithoutDrop: unused }, command: null } }
  }

  return { status: runAll(), working, deleted, events, addressBalanceChanges }
}
