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

/** What the running transaction holds and has done so far. */
interface RunState {
  readonly program: Program
  readonly working: Map<string, Working>
  readonly deleted: Set<string>
  readonly events: Array<ChainEvent>
  readonly funds: Map<string, FundsValue>
  readonly addressBalanceChanges: Array<AddressBalanceChange>
  /** Values created in this transaction that must end up consumed or transferred (a Coin has no `drop`): id → where it was made. */
  readonly dangling: Map<string, { readonly resultIdx: number; readonly secondaryIdx: number }>
  readonly results: Array<ReadonlyArray<Value>>
  creations: number
  fundsMade: number
  commandIdx: number
}

/** The objects as the running transaction sees and changes them, and the events it emits. */
const objectStore = (state: RunState) => {
  const { working, deleted } = state
  const digestBytes = fromBase58(state.program.digest)
  const current = (id: string): Working | undefined => {
    if (deleted.has(id)) return undefined
    const touched = working.get(id)
    if (touched !== undefined) return touched
    const stored = state.program.objects.get(id)
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
  const freshId = () => deriveObjectId(digestBytes, state.creations++)
  const destroy = (id: string) => {
    deleted.add(id)
    state.dangling.delete(id)
  }
  const emit = <T>(type: string, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T) => {
    state.events.push({
      type,
      sender: state.program.sender,
      parsedJson: JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))),
      bcs: encodeBase64(layout.serialize(value).toBytes())
    })
  }
  return { current, write, createObject, freshId, destroy, emit }
}

// === Arguments ===

/** The value an argument names: the gas coin, an input, or an earlier command's result. */
const resolve = (state: RunState, arg: Argument, argIdx: number): Value => {
  switch (arg.$kind) {
    case "GasCoin":
      // Admission refuses `GasCoin` when gas is paid from the address balance; nothing else lacks one.
      if (state.program.gas === undefined) throw argumentError(argIdx, { TypeMismatch: true })
      return { _tag: "Object", id: state.program.gas.id, mutable: true }
    case "Input": {
      const v = state.program.inputs[arg.Input]
      if (v === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: arg.Input } })
      return v
    }
    case "Result": {
      const row = state.results[arg.Result]
      if (row === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: arg.Result } })
      const [v, ...more] = row
      if (v === undefined || more.length > 0) throw argumentError(argIdx, { InvalidResultArity: { resultIdx: arg.Result } })
      return v
    }
    case "NestedResult": {
      const [i, j] = arg.NestedResult
      const row = state.results[i]
      if (row === undefined) throw argumentError(argIdx, { IndexOutOfBounds: { idx: i } })
      const v = row[j]
      if (v === undefined) throw argumentError(argIdx, { SecondaryIndexOutOfBounds: { resultIdx: i, secondaryIdx: j } })
      return v
    }
    default:
      throw argumentError(argIdx, { TypeMismatch: true })
  }
}

/** Arguments taken as what a command expects of them, and the values and balance changes a command makes. */
const argumentAccess = (state: RunState, current: (id: string) => Working | undefined) => {
  const GAS = state.program.gas?.id
  const pureAt = (arg: Argument, argIdx: number) => {
    const v = resolve(state, arg, argIdx)
    if (v._tag !== "Pure") throw argumentError(argIdx, { TypeMismatch: true })
    return v.bytes
  }
  const objectAt = (arg: Argument, argIdx: number): ObjectArgument => {
    const v = resolve(state, arg, argIdx)
    if (v._tag === "Funds") throw argumentError(argIdx, { TypeMismatch: true })
    if (v._tag !== "Object") throw argumentError(argIdx, { InvalidUsageOfPureArg: true })
    const object = current(v.id)
    if (object === undefined) throw argumentError(argIdx, { ArgumentWithoutValue: true })
    return { id: v.id, mutable: v.mutable, ...object }
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
    const v = resolve(state, arg, argIdx)
    if (v._tag !== "Funds") throw argumentError(argIdx, { TypeMismatch: true })
    const held = state.funds.get(v.id)
    if (held === undefined) throw argumentError(argIdx, { ArgumentWithoutValue: true })
    if (held.kind !== kind) throw argumentError(argIdx, { TypeMismatch: true })
    state.funds.delete(v.id)
    state.dangling.delete(v.id)
    return held
  }
  const makeFunds = (value: FundsValue): Value => {
    const id = `funds:${state.fundsMade++}`
    state.funds.set(id, value)
    if (value.kind === "Balance") state.dangling.set(id, { resultIdx: state.commandIdx, secondaryIdx: 0 })
    return { _tag: "Funds", id }
  }
  const mustUse = (id: string) => {
    state.dangling.set(id, { resultIdx: state.commandIdx, secondaryIdx: 0 })
  }
  const accumulate = (change: AddressBalanceChange) => {
    state.addressBalanceChanges.push(change)
  }
  return { pureAt, objectAt, coinAt, coinByValue, fundsByValue, makeFunds, mustUse, accumulate }
}

/** What the framework commands act through: the object store and the arguments. */
type Access = ReturnType<typeof objectStore> & ReturnType<typeof argumentAccess>

// === Framework commands ===

const splitCoins = (state: RunState, access: Access, command: NonNullable<Command["SplitCoins"]>, resultIdx: number): ReadonlyArray<Value> => {
  const source = access.coinAt(command.coin, 0)
  if (!source.mutable) throw argumentError(0, { InvalidObjectByMutRef: true })
  const amounts = command.amounts.map((a, i) => BigInt(decode(u64Layout, access.pureAt(a, i + 1), i + 1)))
  let balance = source.coin.balance
  const made = amounts.map((amount, secondaryIdx): Value => {
    if (amount > balance) throw new Failed({ InsufficientCoinBalance: true })
    balance -= amount
    const id = access.createObject(access.freshId(), { _tag: "Coin", coinType: source.coin.coinType, balance: amount }, { _tag: "Address", address: state.program.sender })
    state.dangling.set(id, { resultIdx, secondaryIdx })
    return { _tag: "Object", id, mutable: true }
  })
  access.write(source.id, { ...source.coin, balance })
  return made
}

const mergeCoins = (access: Access, command: NonNullable<Command["MergeCoins"]>): ReadonlyArray<Value> => {
  const destination = access.coinAt(command.destination, 0)
  if (!destination.mutable) throw argumentError(0, { InvalidObjectByMutRef: true })
  let balance = destination.coin.balance
  command.sources.forEach((a, i) => {
    const source = access.coinByValue(a, i + 1)
    if (source.id === destination.id) throw argumentError(i + 1, { ArgumentWithoutValue: true })
    if (source.coin.coinType !== destination.coin.coinType) throw argumentError(i + 1, { TypeMismatch: true })
    balance += source.coin.balance
    if (balance > U64_MAX) throw new Failed({ CoinBalanceOverflow: true })
    access.destroy(source.id)
  })
  access.write(destination.id, { ...destination.coin, balance })
  return []
}

const transferObjects = (state: RunState, access: Access, command: NonNullable<Command["TransferObjects"]>): ReadonlyArray<Value> => {
  const moved = command.objects.map((a, i) => {
    const object = access.objectAt(a, i)
    if (object.owner._tag !== "Address") throw argumentError(i, { InvalidObjectByValue: true })
    return object
  })
  const addressIdx = command.objects.length
  const recipient = normalizeSuiAddress(decode(addressLayout, access.pureAt(command.address, addressIdx), addressIdx))
  for (const object of moved) {
    access.write(object.id, object.data, { _tag: "Address", address: recipient })
    state.dangling.delete(object.id)
  }
  return []
}

/** Every command in order, until the first failure; then whether a value was left without `drop`. */
const runAll = (state: RunState, access: Access, runtime: MoveRuntime): Execution["status"] => {
  const run = (command: Command, index: number): ReadonlyArray<Value> => {
    if (command.MoveCall) return state.program.callMove(command.MoveCall, runtime)
    if (command.SplitCoins) return splitCoins(state, access, command.SplitCoins, index)
    if (command.MergeCoins) return mergeCoins(access, command.MergeCoins)
    if (command.TransferObjects) return transferObjects(state, access, command.TransferObjects)
    throw new Failed({ FeatureNotYetSupported: true })
  }
  for (const [index, command] of state.program.commands.entries()) {
    state.commandIdx = index
    try {
      state.results.push(run(command, index))
    } catch (error) {
      if (!(error instanceof Failed)) throw error
      return { Failure: { error: error.error, command: index } }
    }
  }
  const [unused] = state.dangling.values()
  return unused === undefined ? { Success: true } : { Failure: { error: { UnusedValueWithoutDrop: unused }, command: null } }
}

/**
 * Runs a programmable transaction's commands in order, as Sui's PTB runtime
 * does: arguments resolve to inputs and earlier results, the framework
 * commands (SplitCoins, MergeCoins, TransferObjects) act on coins, and Move
 * calls go to `callMove`. The first failure stops it; a created value left
 * neither consumed nor transferred fails it at the end.
 */
export const interpret = (program: Program): Interpretation => {
  const state: RunState = {
    program,
    working: new Map(),
    deleted: new Set(),
    events: [],
    funds: new Map(program.funds),
    addressBalanceChanges: [],
    dangling: new Map(),
    results: [],
    creations: 0,
    fundsMade: 0,
    commandIdx: 0
  }
  if (program.gas !== undefined) {
    state.working.set(program.gas.id, { data: { _tag: "Coin", coinType: gasCoinType, balance: program.gas.balance }, owner: program.gas.owner })
    for (const id of program.gas.merged) state.deleted.add(id)
  }
  const store = objectStore(state)
  const args = argumentAccess(state, store.current)
  const access: Access = { ...store, ...args }
  const runtime: MoveRuntime = {
    sender: program.sender,
    lamport: program.lamport,
    current: store.current,
    write: store.write,
    createObject: store.createObject,
    freshId: store.freshId,
    destroy: store.destroy,
    emit: store.emit,
    pureAt: args.pureAt,
    objectAt: args.objectAt,
    coinByValue: args.coinByValue,
    fundsByValue: args.fundsByValue,
    makeFunds: args.makeFunds,
    mustUse: args.mustUse,
    accumulate: args.accumulate
  }
  const status = runAll(state, access, runtime)
  return { status, working: state.working, deleted: state.deleted, events: state.events, addressBalanceChanges: state.addressBalanceChanges }
}
