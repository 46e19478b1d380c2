import { normalizeSuiAddress } from "@mysten/sui/utils"
import { CLOCK_OBJECT_ID, normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "@gateway/chain/Base64"
import type { ObjectReader } from "../Execution.ts"
import type { LedgerObject } from "../LedgerObject.ts"
import { type AddressBalanceReader, addressBalanceKey } from "./AddressBalances.ts"
import { isFrameworkFundsCall } from "./FrameworkFunds.ts"
import type { FundsValue, ProgrammableTransaction, TransactionData, Value } from "./ProgrammableTransaction.ts"

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
  /** None when gas is paid from the gas owner's SUI address balance (an empty payment). */
  readonly primaryGas: LedgerObject | undefined
  /** The other gas coins, merged into the primary one. */
  readonly mergedGas: ReadonlyArray<LedgerObject>
  /** What the gas coins hold together; with no coins, what the gas owner's SUI address balance holds. */
  readonly gasBalance: bigint
  readonly gasOwner: string
  /** The `FundsWithdrawal` inputs, by the id of their `Funds` value. */
  readonly funds: ReadonlyMap<string, FundsValue>
  /** Every input object, in order. */
  readonly inputObjects: ReadonlyMap<string, InputObject>
  readonly inputs: ReadonlyArray<Value>
  /** One more than the highest input version: what every written object becomes. */
  readonly lamport: bigint
}

type Expiration = TransactionData["V1"]["expiration"]

/**
 * A transaction's expiration as Sui checks it against the current epoch
 * (sui-types transaction.rs `TransactionData::validity_check` and the
 * authority's epoch check): an `Epoch` expiration is valid through that
 * epoch; a `ValidDuring` window has no timestamps, both epochs with at most
 * one between them, this chain, and the current epoch inside it. An
 * address-balance gas payment leaves the transaction without owned objects,
 * so the window is its only replay guard and is required.
 */
const checkExpiration = (input: {
  readonly expiration: Expiration
  readonly epoch: bigint
  readonly chainIdentifier: string
  readonly windowRequired: boolean
}): Rejection | undefined => {
  const { expiration, epoch } = input
  if (expiration.$kind === "Epoch") {
    const until = BigInt(expiration.Epoch)
    return epoch > until ? new Rejection(`TransactionExpired: valid until epoch ${until}, the current epoch is ${epoch}`) : undefined
  }
  if (expiration.$kind !== "ValidDuring") {
    return input.windowRequired ? new Rejection("a transaction that pays gas from the address balance needs a ValidDuring expiration") : undefined
  }
  const { minEpoch, maxEpoch, minTimestamp, maxTimestamp, chain } = expiration.ValidDuring
  if (minTimestamp !== null || maxTimestamp !== null) return new Rejection("Timestamp-based transaction expiration is not supported")
  if (minEpoch === null || maxEpoch === null) return new Rejection("Both min_epoch and max_epoch must be specified")
  const min = BigInt(minEpoch)
  const max = BigInt(maxEpoch)
  if (max !== min && max !== min + 1n) return new Rejection("max_epoch must be at most min_epoch + 1")
  if (chain !== input.chainIdentifier) return new Rejection(`InvalidChainId: the transaction is for chain ${chain}, this is ${input.chainIdentifier}`)
  if (epoch > max) return new Rejection(`TransactionExpired: valid until epoch ${max}, the current epoch is ${epoch}`)
  if (epoch < min) return new Rejection(`the transaction is valid from epoch ${min}; the current epoch is ${epoch}`)
  return undefined
}

type Command = ProgrammableTransaction["commands"][number]

/** Every argument a command names. */
const argumentsOf = (command: Command) => [
  ...(command.MoveCall?.arguments ?? []),
  ...(command.TransferObjects === undefined || command.TransferObjects === null ? [] : [...command.TransferObjects.objects, command.TransferObjects.address]),
  ...(command.SplitCoins === undefined || command.SplitCoins === null ? [] : [command.SplitCoins.coin, ...command.SplitCoins.amounts]),
  ...(command.MergeCoins === undefined || command.MergeCoins === null ? [] : [command.MergeCoins.destination, ...command.MergeCoins.sources]),
  ...(command.MakeMoveVec?.elements ?? [])
]

export const usesGasCoin = (pt: ProgrammableTransaction) => pt.commands.some((command) => argumentsOf(command).some((arg) => arg.$kind === "GasCoin"))

/**
 * What of the gas owner's SUI address balance is left for gas once the
 * transaction's own SUI withdrawals from it are reserved (sui-rpc-api
 * simulate `address_balance_available_for_gas`); none for a transaction
 * that uses the gas coin, which needs a coin.
 */
export const addressBalanceForGas = (data: TransactionData, addressBalance: AddressBalanceReader): bigint | undefined => {
  const tx = data.V1
  const pt = tx.kind.ProgrammableTransaction
  if (pt === undefined || pt === null || usesGasCoin(pt)) return undefined
  const gasOwner = normalizeSuiAddress(tx.gasData.owner)
  const sui = normalizeCoinType(SUI_COIN_TYPE)
  const withdrawn = pt.inputs.reduce((sum, arg) => {
    const w = arg.FundsWithdrawal
    if (w === undefined || w === null || normalizeCoinType(w.typeArg.Balance) !== sui) return sum
    const owner = w.withdrawFrom.$kind === "Sponsor" ? gasOwner : w.withdrawFrom.$kind === "Sender" ? normalizeSuiAddress(tx.sender) : undefined
    return owner === gasOwner ? sum + BigInt(w.reservation.MaxAmountU64) : sum
  }, 0n)
  const left = addressBalance(gasOwner, sui) - withdrawn
  return left > 0n ? left : 0n
}

/** What admission checks a transaction against: the ledger as it stands. */
interface AdmissionInput {
  readonly data: TransactionData
  readonly publishedAt: string
  /** The current epoch, and its reference gas price. */
  readonly epoch: bigint
  readonly referenceGasPrice: bigint
  readonly objects: ObjectReader
  readonly addressBalance: AddressBalanceReader
  /** The genesis checkpoint's digest: what a `ValidDuring` expiration names as its chain. */
  readonly chainIdentifier: string
}

type Input = ProgrammableTransaction["inputs"][number]
type ObjectInput = NonNullable<Input["Object"]>

/** What admission has seen so far: the objects named, their versions, and what the address balances must cover. */
interface Seen {
  readonly input: AdmissionInput
  readonly sender: string
  readonly gasOwner: string
  readonly versions: Array<bigint>
  readonly named: Set<string>
  /** What the transaction reserves of each address balance, by `addressBalanceKey`. */
  readonly reserved: Map<string, { readonly owner: string; readonly coinType: string; amount: bigint }>
}

const once = (seen: Seen, objectId: string): Rejection | undefined => {
  const id = normalizeSuiAddress(objectId)
  if (seen.named.has(id)) return new Rejection(`object ${id} is named more than once among the gas payment and the inputs`)
  seen.named.add(id)
  return undefined
}

const owned = (seen: Seen, ref: { objectId: string; version: string | number; digest: string }, owner: string): Rejection | LedgerObject => {
  const object = seen.input.objects.get(normalizeSuiAddress(ref.objectId))
  if (object === undefined) return new Rejection(`object ${ref.objectId} does not exist`)
  if (BigInt(ref.version) !== object.version || ref.digest !== object.digest) {
    return new Rejection(`object ${ref.objectId} is not at version ${ref.version}; current version is ${object.version}`)
  }
  if (object.owner._tag !== "Address" || object.owner.address !== owner) return new Rejection(`object ${ref.objectId} is not owned by ${owner}`)
  seen.versions.push(object.version)
  return object
}

const reserve = (seen: Seen, owner: string, coinType: string, amount: bigint) => {
  const key = addressBalanceKey(owner, coinType)
  const entry = seen.reserved.get(key) ?? { owner: normalizeSuiAddress(owner), coinType: normalizeCoinType(coinType), amount: 0n }
  entry.amount += amount
  seen.reserved.set(key, entry)
}

/** The expiration against the current epoch, gas price and budget, and every package called being on this ledger. */
const checkTransaction = (input: AdmissionInput, pt: ProgrammableTransaction, price: bigint, budget: bigint, computation: bigint): Rejection | undefined => {
  const tx = input.data.V1
  const expired = checkExpiration({ expiration: tx.expiration, epoch: input.epoch, chainIdentifier: input.chainIdentifier, windowRequired: tx.gasData.payment.length === 0 })
  if (expired !== undefined) return expired
  // sui-types `UserInputError::GasPriceUnderRGP`, in its words.
  if (price < input.referenceGasPrice) return new Rejection(`Gas price ${price} under reference gas price (RGP) ${input.referenceGasPrice}`)
  if (budget < computation) return new Rejection(`gas budget ${budget} below the minimum ${computation}`)
  // Packages are loaded as inputs: a call to one that is not on chain is refused before execution.
  for (const command of pt.commands) {
    if (command.MoveCall && normalizeSuiAddress(command.MoveCall.package) !== input.publishedAt && !isFrameworkFundsCall(command.MoveCall)) {
      return new Rejection(`package ${command.MoveCall.package} is not on this ledger (calls go to ${input.publishedAt})`)
    }
  }
  return undefined
}

/** Gas: SUI coins of the gas owner, enough for the budget; or, with no coins, its SUI address balance. */
const admitGas = (seen: Seen, pt: ProgrammableTransaction, budget: bigint) => {
  const { payment } = seen.input.data.V1.gasData
  const { gasOwner } = seen
  if (payment.length === 0) {
    if (usesGasCoin(pt)) return new Rejection("GasCoin cannot be used when gas is paid from the address balance")
    // sui-core execution_engine: an empty payment is `PaymentMethod::AddressBalance(gas owner, budget)`, a reservation like any other.
    reserve(seen, gasOwner, SUI_COIN_TYPE, budget)
  }
  const gasCoins: Array<LedgerObject> = []
  for (const ref of payment) {
    const duplicate = once(seen, ref.objectId)
    if (duplicate !== undefined) return duplicate
    const coin = owned(seen, ref, gasOwner)
    if (coin instanceof Rejection) return coin
    if (coin.data._tag !== "Coin" || coin.data.coinType !== normalizeCoinType(SUI_COIN_TYPE)) return new Rejection(`gas object ${coin.id} is not a SUI coin`)
    gasCoins.push(coin)
  }
  const [primaryGas, ...mergedGas] = gasCoins
  const gasBalance = primaryGas === undefined
    ? seen.input.addressBalance(gasOwner, SUI_COIN_TYPE)
    : gasCoins.reduce((sum, c) => sum + (c.data._tag === "Coin" ? c.data.balance : 0n), 0n)
  if (gasBalance < budget) return new Rejection(`gas balance ${gasBalance} is below the budget ${budget}`)
  return { primaryGas, mergedGas, gasBalance }
}

/** The inputs as they resolve: values in order, the objects among them, and the withdrawals by their `Funds` id. */
interface Inputs {
  readonly inputObjects: Map<string, InputObject>
  readonly inputs: Array<Value>
  readonly funds: Map<string, FundsValue>
}

/** An owned object input: the sender's, at its version. */
const ownedInput = (seen: Seen, into: Inputs, ref: NonNullable<ObjectInput["ImmOrOwnedObject"]>): Rejection | undefined => {
  const duplicate = once(seen, ref.objectId)
  if (duplicate !== undefined) return duplicate
  const object = owned(seen, ref, seen.sender)
  if (object instanceof Rejection) return object
  into.inputObjects.set(object.id, { object, mutable: true })
  into.inputs.push({ _tag: "Object", id: object.id, mutable: true })
  return undefined
}

/** A shared object input: shared at the initial version it names. */
const sharedInput = (seen: Seen, into: Inputs, shared: NonNullable<ObjectInput["SharedObject"]>): Rejection | undefined => {
  const duplicate = once(seen, shared.objectId)
  if (duplicate !== undefined) return duplicate
  const object = seen.input.objects.get(normalizeSuiAddress(shared.objectId))
  if (object === undefined) return new Rejection(`shared object ${shared.objectId} does not exist`)
  if (object.owner._tag !== "Shared" || object.owner.initialSharedVersion !== BigInt(shared.initialSharedVersion)) {
    return new Rejection(`object ${shared.objectId} is not shared at initial version ${shared.initialSharedVersion}`)
  }
  // Sui's input check (sui-transaction-checks `check_objects`) refuses the Clock taken mutably: ImmutableParameterExpectedError.
  if (shared.mutable && object.id === normalizeSuiAddress(CLOCK_OBJECT_ID)) {
    return new Rejection(`ImmutableParameterExpectedError: the Clock ${object.id} can only be taken by immutable reference`)
  }
  seen.versions.push(object.version)
  into.inputObjects.set(object.id, { object, mutable: shared.mutable })
  into.inputs.push({ _tag: "Object", id: object.id, mutable: shared.mutable })
  return undefined
}

/** A withdrawal from an address balance, reserved against it. */
const fundsInput = (seen: Seen, into: Inputs, withdrawal: NonNullable<Input["FundsWithdrawal"]>): Rejection | undefined => {
  // sui-types `FundsWithdrawalArg`: `Sender` draws on the sender, `Sponsor` on the gas owner; the type is `Balance<T>`.
  const { reservation, typeArg, withdrawFrom } = withdrawal
  if (withdrawFrom.$kind === "SenderAllowance") return new Rejection("withdrawals under an allowance are not supported by the local ledger")
  const owner = withdrawFrom.$kind === "Sponsor" ? seen.gasOwner : seen.sender
  const coinType = normalizeCoinType(typeArg.Balance)
  const amount = BigInt(reservation.MaxAmountU64)
  const id = `withdrawal:${into.inputs.length}`
  into.funds.set(id, { kind: "Withdrawal", coinType, amount, owner })
  reserve(seen, owner, coinType, amount)
  into.inputs.push({ _tag: "Funds", id })
  return undefined
}

/** One input, by its kind. */
const admitInput = (seen: Seen, into: Inputs, arg: Input): Rejection | undefined => {
  if (arg.Pure) {
    into.inputs.push({ _tag: "Pure", bytes: decodeBase64(arg.Pure.bytes) })
    return undefined
  }
  if (arg.Object?.ImmOrOwnedObject) return ownedInput(seen, into, arg.Object.ImmOrOwnedObject)
  if (arg.Object?.SharedObject) return sharedInput(seen, into, arg.Object.SharedObject)
  if (arg.FundsWithdrawal) return fundsInput(seen, into, arg.FundsWithdrawal)
  return new Rejection("unsupported input kind")
}

/** Inputs: pure bytes, owned objects of the sender, shared objects at their initial version, withdrawals. */
const admitInputs = (seen: Seen, pt: ProgrammableTransaction): Rejection | Inputs => {
  const into: Inputs = { inputObjects: new Map(), inputs: [], funds: new Map() }
  for (const arg of pt.inputs) {
    const refused = admitInput(seen, into, arg)
    if (refused !== undefined) return refused
  }
  return into
}

/** Every address balance covers what the transaction reserves of it. */
const checkReservations = (seen: Seen): Rejection | undefined => {
  for (const { owner, coinType, amount } of seen.reserved.values()) {
    const available = seen.input.addressBalance(owner, coinType)
    if (available < amount) {
      return new Rejection(
        `InvalidWithdrawReservation: Insufficient address balance of coin type ${coinType} for address ${owner}: ` +
          `the transaction requires ${amount} but only ${available} is available. ` +
          "Note that the address balance does not include funds held in Coin objects owned by the address."
      )
    }
  }
  return undefined
}

/**
 * Sui's checks before execution (sui-transaction-checks: `check_gas`,
 * `check_objects`): the expiration against the current epoch, gas price (at
 * least the epoch's reference gas price) and budget, packages called, and
 * every input existing at its version, owned by whom uses it, named once. A refusal
 * changes nothing. Withdrawals from address balances (the `FundsWithdrawal`
 * inputs, and the budget when gas is paid from the address balance) must be
 * covered by the balances as they stand, as a node checks them when signing
 * (sui-core `AccountFundsRead::check_amounts_available`).
 */
export const admit = (input: AdmissionInput): Admitted | Rejection => {
  const tx = input.data.V1
  const pt = tx.kind.ProgrammableTransaction
  if (pt === undefined || pt === null) return new Rejection("only programmable transactions are supported")
  const price = BigInt(tx.gasData.price)
  const budget = BigInt(tx.gasData.budget)
  const computation = GAS_UNITS * price
  const refused = checkTransaction(input, pt, price, budget, computation)
  if (refused !== undefined) return refused
  const seen: Seen = {
    input,
    sender: normalizeSuiAddress(tx.sender),
    gasOwner: normalizeSuiAddress(tx.gasData.owner),
    versions: [],
    named: new Set(),
    reserved: new Map()
  }
  const gas = admitGas(seen, pt, budget)
  if (gas instanceof Rejection) return gas
  const resolved = admitInputs(seen, pt)
  if (resolved instanceof Rejection) return resolved
  const short = checkReservations(seen)
  if (short !== undefined) return short
  const lamport = [...seen.versions].reduce((a, b) => (a > b ? a : b), 0n) + 1n
  const { primaryGas, mergedGas, gasBalance } = gas
  const { sender, gasOwner } = seen
  const { funds, inputObjects, inputs } = resolved
  return { pt, sender, budget, computation, primaryGas, mergedGas, gasBalance, gasOwner, funds, inputObjects, inputs, lamport }
}
