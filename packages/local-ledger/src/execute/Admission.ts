import { normalizeSuiAddress } from "@mysten/sui/utils"
import { CLOCK_OBJECT_ID, normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "@gateway/chain/Base64"
import type { ObjectReader } from "../Execution.ts"
import type { LedgerObject } from "../LedgerObject.ts"
import type { ProgrammableTransaction, TransactionData, Value } from "./ProgrammableTransaction.ts"

/** The fixed computation charge of one transaction, in gas units: Sui's minimum, which these calls stay within. */
export const GAS_UNITS = 1_000n

/** A transaction refused before execution: it changes nothing and gets no digest recorded. */
export class Rejection {
  readonly _tag = "Rejection"
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

/** An input object; `mutable` ones (owned, or shared taken `&mut`) get a new version whatever happens. */
export interface InputObject {
  readonly object: LedgerObject
  readonly mutable: boolean
}

/** A transaction that passed admission: its gas, its inputs resolved to objects at their versions, and its lamport version. */
export interface Admitted {
  readonly pt: ProgrammableTransaction
  readonly sender: string
  readonly budget: bigint
  /** The computation charge: `GAS_UNITS` at the transaction's gas price. */
  readonly computation: bigint
  readonly primaryGas: LedgerObject
  /** The other gas coins, merged into the primary one. */
  readonly mergedGas: ReadonlyArray<LedgerObject>
  /** What the gas coins hold together. */
  readonly gasBalance: bigint
  /** Every input object, in order. */
  readonly inputObjects: ReadonlyMap<string, InputObject>
  readonly inputs: ReadonlyArray<Value>
  /** One more than the highest input version: what every written object becomes. */
  readonly lamport: bigint
}

/**
 * Sui's checks before execution (sui-transaction-checks: `check_gas`,
 * `check_objects`): gas price and budget, packages called, and every input
 * existing at its version, owned by whom uses it, named once. A refusal
 * changes nothing.
 */
export const admit = (input: {
  readonly data: TransactionData
  readonly publishedAt: string
  readonly referenceGasPrice: bigint
  readonly objects: ObjectReader
}): Admitted | Rejection => {
  const { publishedAt } = input
  const tx = input.data.V1
  const pt = tx.kind.ProgrammableTransaction
  if (pt === undefined || pt === null) return new Rejection("only programmable transactions are supported")
  const sender = normalizeSuiAddress(tx.sender)
  const gasOwner = normalizeSuiAddress(tx.gasData.owner)
  const price = BigInt(tx.gasData.price)
  const budget = BigInt(tx.gasData.budget)
  const computation = GAS_UNITS * price
  if (price < input.referenceGasPrice) return new Rejection(`gas price ${price} below the reference gas price ${input.referenceGasPrice}`)
  if (budget < computation) return new Rejection(`gas budget ${budget} below the minimum ${computation}`)
  // Packages are loaded as inputs: a call to one that is not on chain is refused before execution.
  for (const command of pt.commands) {
    if (command.MoveCall && normalizeSuiAddress(command.MoveCall.package) !== publishedAt) {
      return new Rejection(`package ${command.MoveCall.package} is not on this ledger (calls go to ${publishedAt})`)
    }
  }

  const versions: Array<bigint> = []
  const named = new Set<string>()
  const once = (objectId: string): Rejection | undefined => {
    const id = normalizeSuiAddress(objectId)
    if (named.has(id)) return new Rejection(`object ${id} is named more than once among the gas payment and the inputs`)
    named.add(id)
    return undefined
  }
  const owned = (ref: { objectId: string; version: string | number; digest: string }, owner: string): Rejection | LedgerObject => {
    const object = input.objects.get(normalizeSuiAddress(ref.objectId))
    if (object === undefined) return new Rejection(`object ${ref.objectId} does not exist`)
    if (BigInt(ref.version) !== object.version || ref.digest !== object.digest) {
      return new Rejection(`object ${ref.objectId} is not at version ${ref.version}; current version is ${object.version}`)
    }
    if (object.owner._tag !== "Address" || object.owner.address !== owner) return new Rejection(`object ${ref.objectId} is not owned by ${owner}`)
    versions.push(object.version)
    return object
  }

  // === Gas: SUI coins of the gas owner, enough for the budget ===
  if (tx.gasData.payment.length === 0) return new Rejection("no gas payment")
  const gasCoins: Array<LedgerObject> = []
  for (const ref of tx.gasData.payment) {
    const duplicate = once(ref.objectId)
    if (duplicate !== undefined) return duplicate
    const coin = owned(ref, gasOwner)
    if (coin instanceof Rejection) return coin
    if (coin.data._tag !== "Coin" || coin.data.coinType !== normalizeCoinType(SUI_COIN_TYPE)) return new Rejection(`gas object ${coin.id} is not a SUI coin`)
    gasCoins.push(coin)
  }
  const [primaryGas, ...mergedGas] = gasCoins
  if (primaryGas === undefined) return new Rejection("no gas payment")
  const gasBalance = gasCoins.reduce((sum, c) => sum + (c.data._tag === "Coin" ? c.data.balance : 0n), 0n)
  if (gasBalance < budget) return new Rejection(`gas balance ${gasBalance} is below the budget ${budget}`)

  // === Inputs: pure bytes, owned objects of the sender, shared objects at their initial version ===
  const inputObjects = new Map<string, InputObject>()
  const inputs: Array<Value> = []
  for (const arg of pt.inputs) {
    if (arg.Pure) inputs.push({ _tag: "Pure", bytes: decodeBase64(arg.Pure.bytes) })
    else if (arg.Object?.ImmOrOwnedObject) {
      const duplicate = once(arg.Object.ImmOrOwnedObject.objectId)
      if (duplicate !== undefined) return duplicate
      const object = owned(arg.Object.ImmOrOwnedObject, sender)
      if (object instanceof Rejection) return object
      inputObjects.set(object.id, { object, mutable: true })
      inputs.push({ _tag: "Object", id: object.id, mutable: true })
    } else if (arg.Object?.SharedObject) {
      const shared = arg.Object.SharedObject
      const duplicate = once(shared.objectId)
      if (duplicate !== undefined) return duplicate
      const object = input.objects.get(normalizeSuiAddress(shared.objectId))
      if (object === undefined) return new Rejection(`shared object ${shared.objectId} does not exist`)
      if (object.owner._tag !== "Shared" || object.owner.initialSharedVersion !== BigInt(shared.initialSharedVersion)) {
        return new Rejection(`object ${shared.objectId} is not shared at initial version ${shared.initialSharedVersion}`)
      }
      // Sui's input check (sui-transaction-checks `check_objects`) refuses the Clock taken mutably: ImmutableParameterExpectedError.
      if (shared.mutable && object.id === normalizeSuiAddress(CLOCK_OBJECT_ID)) {
        return new Rejection(`ImmutableParameterExpectedError: the Clock ${object.id} can only be taken by immutable reference`)
      }
      versions.push(object.version)
      inputObjects.set(object.id, { object, mutable: shared.mutable })
      inputs.push({ _tag: "Object", id: object.id, mutable: shared.mutable })
    } else return new Rejection("unsupported input kind")
  }

  const lamport = [...versions].reduce((a, b) => (a > b ? a : b), 0n) + 1n
  return { pt, sender, budget, computation, primaryGas, mergedGas, gasBalance, inputObjects, inputs, lamport }
}
