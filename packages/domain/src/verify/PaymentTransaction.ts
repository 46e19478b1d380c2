import { bcs } from "@mysten/sui/bcs"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Functions, MODULE, normalizeCoinType, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type Programmable = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type Command = Programmable["commands"][number]
type Argument = NonNullable<Command["MoveCall"]>["arguments"][number]
type Input = Programmable["inputs"][number]

/** The clock object `pay` reads. */
const CLOCK_ID = normalizeSuiAddress("0x6")

/**
 * The two payments a sign-first (`exact`) transaction may hold. `GrantPayment`: one `spend_account::pay` by the
 * grant's delegate, its terms as the call's pure arguments say (the simulation's `PaymentMade` is what counts).
 * `Transfer`: the payer's own coins or address balance moved with coin commands only, as `coinWithBalance` builds.
 */
export type PaymentShape =
  | {
    readonly _tag: "GrantPayment"
    readonly coinType: string
    readonly grantObjectId: string
    readonly poolId: string
    readonly amount: bigint
    readonly recipient: string
    readonly memo: Uint8Array
  }
  | { readonly _tag: "Transfer" }

export type PaymentCheck<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly reason: string }

const refuse = <A>(reason: string): PaymentCheck<A> => ({ ok: false, reason })
const accept = <A>(value: A): PaymentCheck<A> => ({ ok: true, value })

const parseOr = <T>(parse: () => T): T | undefined => {
  try {
    return parse()
  } catch {
    return undefined
  }
}

const sameAddress = (a: string, b: string) => normalizeSuiAddress(a) === normalizeSuiAddress(b)

/**
 * The framework calls `coinWithBalance` makes (@mysten/sui `transactions/intents/CoinWithBalance`): redeeming an
 * address-balance withdrawal into a coin or balance, a zero coin, sending a coin to an address balance. Nothing
 * else of Move runs in a plain transfer.
 */
const TRANSFER_CALLS: ReadonlyArray<readonly [string, string]> = [
  ["coin", "redeem_funds"],
  ["coin", "into_balance"],
  ["coin", "send_funds"],
  ["coin", "destroy_zero"],
  ["coin", "zero"],
  ["balance", "redeem_funds"],
  ["balance", "zero"]
]

const argumentsOf = (command: Command): ReadonlyArray<Argument> => {
  switch (command.$kind) {
    case "MoveCall":
      return command.MoveCall.arguments
    case "TransferObjects":
      return [...command.TransferObjects.objects, command.TransferObjects.address]
    case "SplitCoins":
      return [command.SplitCoins.coin, ...command.SplitCoins.amounts]
    case "MergeCoins":
      return [command.MergeCoins.destination, ...command.MergeCoins.sources]
    case "MakeMoveVec":
      return command.MakeMoveVec.elements
    case "Upgrade":
      return [command.Upgrade.ticket]
    default:
      return []
  }
}

const inputAt = (ptb: Programmable, arg: Argument | undefined): Input | undefined =>
  arg !== undefined && arg.$kind === "Input" ? ptb.inputs[arg.Input] : undefined

const sharedId = (input: Input | undefined, mutable: boolean): string | undefined =>
  input?.$kind === "Object" && input.Object.$kind === "SharedObject" && input.Object.SharedObject.mutable === mutable
    ? normalizeSuiAddress(input.Object.SharedObject.objectId)
    : undefined

const pureBytes = (input: Input | undefined): Uint8Array | undefined => (input?.$kind === "Pure" ? fromBase64(input.Pure.bytes) : undefined)

/** `pay<T>(registry, grant, pool, amount, recipient, memo, clock)`, each argument an input of its kind, alone in the transaction. */
const grantPayment = (ptb: Programmable, pkg: SpendAccountPackage): PaymentCheck<PaymentShape> => {
  const [command, ...more] = ptb.commands
  if (command === undefined || command.$kind !== "MoveCall" || more.length > 0) {
    return refuse("commands: a grant payment is exactly one call to spend_account::pay")
  }
  const call = command.MoveCall
  if (!sameAddress(call.package, pkg.publishedAt) && !sameAddress(call.package, pkg.originalId)) {
    return refuse(`package: ${call.package} is not the configured spend_account package`)
  }
  if (call.module !== MODULE || call.function !== "pay") return refuse(`function: ${call.module}::${call.function} is not ${MODULE}::pay`)
  const [coinType, ...otherTypes] = call.typeArguments
  if (coinType === undefined || otherTypes.length > 0) return refuse("typeArguments: pay takes one coin type")
  if (call.arguments.length !== Functions.pay.parameters.length) return refuse(`arguments: pay takes ${Functions.pay.parameters.length}`)
  const [registry, grant, pool, amount, recipient, memo, clock] = call.arguments.map((arg) => inputAt(ptb, arg))
  const registryId = sharedId(registry, false)
  if (registryId === undefined || registryId !== normalizeSuiAddress(pkg.registryId)) return refuse("arguments.0: the package's Registry, shared and read-only")
  const grantObjectId = sharedId(grant, true)
  if (grantObjectId === undefined) return refuse("arguments.1: the Grant, shared and mutable")
  const poolId = sharedId(pool, true)
  if (poolId === undefined) return refuse("arguments.2: the pool, shared and mutable")
  if (sharedId(clock, false) !== CLOCK_ID) return refuse("arguments.6: the Clock (0x6), shared and read-only")
  const amountBytes = pureBytes(amount)
  const atomic = amountBytes === undefined ? undefined : parseOr(() => BigInt(bcs.u64().parse(amountBytes)))
  if (atomic === undefined) return refuse("arguments.3: a pure u64 amount")
  const recipientBytes = pureBytes(recipient)
  const to = recipientBytes === undefined ? undefined : parseOr(() => bcs.Address.parse(recipientBytes))
  if (to === undefined) return refuse("arguments.4: a pure recipient address")
  const memoBytes = pureBytes(memo)
  const memoValue = memoBytes === undefined ? undefined : parseOr(() => Uint8Array.from(bcs.byteVector().parse(memoBytes)))
  if (memoValue === undefined) return refuse("arguments.5: a pure byte-vector memo")
  return accept({
    _tag: "GrantPayment",
    coinType: normalizeCoinType(coinType),
    grantObjectId,
    poolId,
    amount: atomic,
    recipient: normalizeSuiAddress(to),
    memo: memoValue
  })
}

const isTransferCall = (call: NonNullable<Command["MoveCall"]>) =>
  sameAddress(call.package, "0x2") && TRANSFER_CALLS.some(([module, fn]) => call.module === module && call.function === fn)

/**
 * Coin commands only: splits, merges, transfers and the framework calls of `coinWithBalance`. Address-balance
 * withdrawals only from the sender: one drawn on the sponsor would spend the gateway's own balance.
 */
const transfer = (ptb: Programmable, gasCoinAllowed: boolean): PaymentCheck<PaymentShape> => {
  if (ptb.commands.length === 0) return refuse("commands: none; a payment moves the asset to payTo")
  for (const [i, command] of ptb.commands.entries()) {
    const allowed = command.$kind === "SplitCoins" || command.$kind === "MergeCoins" || command.$kind === "TransferObjects" ||
      (command.$kind === "MoveCall" && isTransferCall(command.MoveCall))
    if (!allowed) {
      const what = command.$kind === "MoveCall" ? `${command.MoveCall.package}::${command.MoveCall.module}::${command.MoveCall.function}` : command.$kind
      return refuse(`commands.${i}: ${what} is not a coin command; a plain transfer holds only SplitCoins, MergeCoins, TransferObjects and balance withdrawals`)
    }
    if (!gasCoinAllowed && argumentsOf(command).some((arg) => arg.$kind === "GasCoin")) {
      return refuse(`commands.${i}: uses the gas coin, which is the sponsor's`)
    }
  }
  for (const [i, input] of ptb.inputs.entries()) {
    if (input.$kind === "FundsWithdrawal" && input.FundsWithdrawal.withdrawFrom.$kind !== "Sender") {
      return refuse(`inputs.${i}: an address-balance withdrawal must draw on the sender`)
    }
  }
  return accept({ _tag: "Transfer" })
}

/**
 * The payment a programmable transaction holds: a grant payment when its one command calls this package, a plain
 * transfer otherwise. `gasCoinAllowed` is false when someone else (the sponsor) owns the gas.
 */
export const checkPaymentCommands = (ptb: Programmable, pkg: SpendAccountPackage, gasCoinAllowed: boolean): PaymentCheck<PaymentShape> => {
  const first = ptb.commands[0]
  const callsPackage = first?.$kind === "MoveCall" &&
    (sameAddress(first.MoveCall.package, pkg.publishedAt) || sameAddress(first.MoveCall.package, pkg.originalId))
  if (callsPackage) return grantPayment(ptb, pkg)
  if (ptb.inputs.some((input) => input.$kind === "Object" && input.Object.$kind === "SharedObject")) {
    return refuse("inputs: a plain transfer takes no shared object")
  }
  return transfer(ptb, gasCoinAllowed)
}

/** The `TransactionKind` a payer asks the gas station to pay gas for: a payment, never touching the gas coin. */
export const checkPaymentKind = (kindBytes: Uint8Array, pkg: SpendAccountPackage): PaymentCheck<PaymentShape> => {
  const kind = parseOr(() => bcs.TransactionKind.parse(kindBytes))
  if (kind === undefined) return refuse("transactionKind: not BCS TransactionKind bytes")
  if (kind.$kind !== "ProgrammableTransaction") return refuse("transactionKind: not a programmable transaction")
  return checkPaymentCommands(kind.ProgrammableTransaction, pkg, false)
}

/** A gas coin as the transaction names it. */
export interface GasObject {
  readonly objectId: string
  readonly version: string
  readonly digest: string
}

/** When a signed payment stops being executable, as its bytes say. */
export type PaymentExpiration =
  | { readonly _tag: "None" }
  /** Executable up to and including this epoch. */
  | { readonly _tag: "Epoch"; readonly epoch: bigint }

/** A signed payment's transaction, read from its bytes: who sends it, who pays its gas, when it expires, what it pays. */
export interface PaymentTransaction {
  readonly sender: string
  readonly gasOwner: string
  readonly gasPayment: ReadonlyArray<GasObject>
  readonly gasPrice: bigint
  readonly gasBudget: bigint
  readonly expiration: PaymentExpiration
  readonly shape: PaymentShape
  /** The owned objects it takes (gas coins included): at most one unsettled payment may hold each. */
  readonly ownedObjectIds: ReadonlyArray<string>
}

const expirationOf = (data: TransactionData["V1"]): PaymentExpiration | undefined => {
  const expiration = data.expiration
  if (expiration.$kind === "None") return { _tag: "None" }
  if (expiration.$kind === "Epoch") return { _tag: "Epoch", epoch: BigInt(expiration.Epoch) }
  // `ValidDuring` bounds the epochs it may run in: its last one is when it stops being executable.
  const window = expiration.$kind === "ValidDuring" ? expiration.ValidDuring : expiration.Validity
  if (window.maxEpoch === null || window.maxEpoch === undefined) return undefined
  return { _tag: "Epoch", epoch: BigInt(window.maxEpoch) }
}

/** A presented `exact` transaction, read and its shape checked; the signature, simulation and chain are checked elsewhere. */
export const readPaymentTransaction = (txBytes: Uint8Array, pkg: SpendAccountPackage): PaymentCheck<PaymentTransaction> => {
  const data = parseOr(() => bcs.TransactionData.parse(txBytes))
  if (data === undefined) return refuse("transaction: not BCS TransactionData bytes")
  if (data.$kind !== "V1") return refuse("transaction: unknown TransactionData version")
  const v1 = data.V1
  if (v1.kind.$kind !== "ProgrammableTransaction") return refuse("transaction: not a programmable transaction")
  const ptb = v1.kind.ProgrammableTransaction
  const sender = normalizeSuiAddress(v1.sender)
  const gasOwner = normalizeSuiAddress(v1.gasData.owner ?? v1.sender)
  const expiration = expirationOf(v1)
  if (expiration === undefined) return refuse("transaction.expiration: a validity window without a last epoch")
  const shape = checkPaymentCommands(ptb, pkg, gasOwner === sender)
  if (!shape.ok) return shape
  const gasPayment = (v1.gasData.payment ?? []).map((p) => ({ objectId: normalizeSuiAddress(p.objectId), version: String(p.version), digest: p.digest }))
  const owned = ptb.inputs.flatMap((input) =>
    input.$kind === "Object" && input.Object.$kind === "ImmOrOwnedObject" ? [normalizeSuiAddress(input.Object.ImmOrOwnedObject.objectId)] : []
  )
  const gasIds = new Set(gasPayment.map((p) => p.objectId))
  if (gasOwner !== sender && owned.some((id) => gasIds.has(id))) return refuse("inputs: a gas coin is also an input of the payment")
  return accept({
    sender,
    gasOwner,
    gasPayment,
    gasPrice: BigInt(v1.gasData.price ?? 0),
    gasBudget: BigInt(v1.gasData.budget ?? 0),
    expiration,
    shape: shape.value,
    ownedObjectIds: [...new Set([...owned, ...gasIds])]
  })
}
