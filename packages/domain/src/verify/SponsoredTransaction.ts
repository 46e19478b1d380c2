import { bcs } from "@mysten/sui/bcs"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { type FunctionName, Functions, MODULE, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type Programmable = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type Command = Programmable["commands"][number]
type Argument = NonNullable<Command["MoveCall"]>["arguments"][number]
type Input = Programmable["inputs"][number]

/**
 * The owner's own calls the platform pays gas for: a grant's create, revoke,
 * pause and resume (one call each), the pool's withdraw (the call, then the
 * transfer of the coin it returns), and funding a pool from the owner's own
 * coins (split, then create_pool or deposit). Never `pay` (the agent's),
 * never a migration.
 */
const SINGLE_CALLS: ReadonlyArray<FunctionName> = [
  "create_policy_grant",
  "revoke_grant",
  "pause_grant",
  "pause_spend_grant",
  "pause_open_grant",
  "resume_grant",
  "resume_spend_grant",
  "resume_open_grant"
]
const FUNDING_CALLS: ReadonlyArray<FunctionName> = ["create_pool", "deposit"]

export type SponsoredCheck =
  | { readonly ok: true; readonly function: FunctionName }
  | { readonly ok: false; readonly reason: string }

const refuse = (reason: string): SponsoredCheck => ({ ok: false, reason })

const sameAddress = (a: string, b: string) => normalizeSuiAddress(a) === normalizeSuiAddress(b)

const inputIndex = (arg: Argument): number | undefined => (arg.$kind === "Input" ? arg.Input : undefined)

const isPureOrShared = (input: Input | undefined) =>
  input !== undefined && (input.$kind === "Pure" || (input.$kind === "Object" && input.Object.$kind === "SharedObject"))

const isOwned = (input: Input | undefined) => input !== undefined && input.$kind === "Object" && input.Object.$kind === "ImmOrOwnedObject"

/** The call's function when it targets this package's module and is one of `allowed`; a reason otherwise. */
const moduleCall = (
  command: Command | undefined,
  pkg: SpendAccountPackage,
  allowed: ReadonlyArray<FunctionName>
): { readonly reason: string } | { readonly fn: FunctionName; readonly call: NonNullable<Command["MoveCall"]> } => {
  if (command === undefined || command.$kind !== "MoveCall") return { reason: "commands: the last command must be a call into spend_account" }
  const call = command.MoveCall
  if (!sameAddress(call.package, pkg.publishedAt) && !sameAddress(call.package, pkg.originalId)) {
    return { reason: `package: ${call.package} is not the configured spend_account package` }
  }
  if (call.module !== MODULE) return { reason: `module: ${call.module} is not ${MODULE}` }
  const fn = allowed.find((f) => f === call.function)
  if (fn === undefined) return { reason: `function: ${call.function} is not sponsored` }
  if (call.typeArguments.length !== Functions[fn].typeParameters) return { reason: `typeArguments: ${fn} takes ${Functions[fn].typeParameters}` }
  if (call.arguments.length !== Functions[fn].parameters.length) return { reason: `arguments: ${fn} takes ${Functions[fn].parameters.length}` }
  return { fn, call }
}

/** One call of `allowed`, every argument a pure value or a shared object named as an input: nothing owned, no gas coin, no result. */
const singleCall = (ptb: Programmable, pkg: SpendAccountPackage, allowed: ReadonlyArray<FunctionName> = SINGLE_CALLS): SponsoredCheck => {
  const checked = moduleCall(ptb.commands[0], pkg, allowed)
  if (!("fn" in checked)) return refuse(checked.reason)
  for (const [i, arg] of checked.call.arguments.entries()) {
    const index = inputIndex(arg)
    if (index === undefined || !isPureOrShared(ptb.inputs[index])) return refuse(`arguments.${i}: only pure values and shared objects are sponsored`)
  }
  return { ok: true, function: checked.fn }
}

/** `withdraw(registry, pool, amount)`, then `TransferObjects([its coin], address)`: the coin goes where the owner names. */
const withdrawal = (ptb: Programmable, pkg: SpendAccountPackage): SponsoredCheck => {
  const call = singleCall(ptb, pkg, ["withdraw"])
  if (!call.ok) return call
  const transfer = ptb.commands[1]
  if (transfer === undefined || transfer.$kind !== "TransferObjects") return refuse("commands.1: a withdrawal transfers the coin it returns")
  const [coin, ...more] = transfer.TransferObjects.objects
  const isResult = coin !== undefined && more.length === 0 &&
    ((coin.$kind === "Result" && coin.Result === 0) || (coin.$kind === "NestedResult" && coin.NestedResult[0] === 0 && coin.NestedResult[1] === 0))
  if (!isResult) return refuse("commands.1: only the withdrawn coin is transferred")
  const to = inputIndex(transfer.TransferObjects.address)
  if (to === undefined || ptb.inputs[to]?.$kind !== "Pure") return refuse("commands.1: to a pure address")
  // An empty coin would be an object the sponsor pays to store, wherever the owner sends it.
  const amount = ptb.commands[0]?.MoveCall?.arguments[2]
  const amountInput = amount === undefined ? undefined : ptb.inputs[inputIndex(amount) ?? -1]
  const atomic = amountInput?.$kind === "Pure" ? parseOr(() => BigInt(bcs.u64().parse(fromBase64(amountInput.Pure.bytes)))) : undefined
  if (atomic === undefined || atomic === 0n) return refuse("arguments.2: a withdrawal of nothing is not sponsored")
  return call
}

/**
 * `[MergeCoins(coin, owned…)] SplitCoins(coin, [amount]) call(shared, split)`: the owner's coin, never the
 * gas coin, split once and handed whole to create_pool or deposit.
 */
const funding = (ptb: Programmable, pkg: SpendAccountPackage): SponsoredCheck => {
  const [merge, split, call] = ptb.commands.length === 3 ? ptb.commands : [undefined, ...ptb.commands]
  const checked = moduleCall(call, pkg, FUNDING_CALLS)
  if (!("fn" in checked)) return refuse(`commands: ${ptb.commands.length} commands, and only funding a pool takes more than one (${checked.reason})`)
  if (split === undefined || split.$kind !== "SplitCoins") return refuse("commands: funding splits the owner's coin first")
  const coin = inputIndex(split.SplitCoins.coin)
  if (coin === undefined || !isOwned(ptb.inputs[coin])) return refuse("commands.split: the coin must be the owner's own coin, not the gas coin")
  const [amount, ...more] = split.SplitCoins.amounts
  const amountIndex = amount === undefined ? undefined : inputIndex(amount)
  if (amountIndex === undefined || more.length > 0 || ptb.inputs[amountIndex]?.$kind !== "Pure") return refuse("commands.split: one pure amount")
  if (merge !== undefined) {
    if (merge.$kind !== "MergeCoins" || inputIndex(merge.MergeCoins.destination) !== coin) return refuse("commands: only a merge into the split coin may come first")
    for (const source of merge.MergeCoins.sources) {
      if (!isOwned(ptb.inputs[inputIndex(source) ?? -1])) return refuse("commands.merge: only the owner's own coins may be merged")
    }
  }
  const splitAt = ptb.commands.indexOf(split)
  // create_pool(registry, coin) and deposit(registry, pool, coin): shared objects, then the split coin.
  const shared = checked.call.arguments.slice(0, -1)
  const given = checked.call.arguments.at(-1)
  for (const [i, arg] of shared.entries()) {
    const index = inputIndex(arg)
    if (index === undefined || ptb.inputs[index]?.$kind !== "Object" || !isPureOrShared(ptb.inputs[index])) {
      return refuse(`arguments.${i}: the registry or pool, shared`)
    }
  }
  const isSplit = given !== undefined &&
    ((given.$kind === "Result" && given.Result === splitAt) || (given.$kind === "NestedResult" && given.NestedResult[0] === splitAt && given.NestedResult[1] === 0))
  if (!isSplit) return refuse(`arguments.${shared.length}: the coin split above`)
  return { ok: true, function: checked.fn }
}

/** A programmable transaction that is exactly one sponsored call of this package's module. */
export const checkSponsoredCommands = (ptb: Programmable, pkg: SpendAccountPackage): SponsoredCheck => {
  // Only pure values and objects: a funds withdrawal drawn on the gas owner would draw on the sponsor's address balance.
  const other = ptb.inputs.findIndex((input) => input.$kind !== "Pure" && input.$kind !== "Object")
  if (other >= 0) return refuse(`inputs.${other}: only pure values and objects are sponsored`)
  if (ptb.commands.length === 1) return singleCall(ptb, pkg)
  const first = ptb.commands[0]
  if (ptb.commands.length === 2 && first?.$kind === "MoveCall" && first.MoveCall.function === "withdraw") return withdrawal(ptb, pkg)
  if (ptb.commands.length === 2 || ptb.commands.length === 3) return funding(ptb, pkg)
  return refuse(`commands: ${ptb.commands.length} commands; a sponsored transaction holds one call`)
}

const parseOr = <T>(parse: () => T): T | undefined => {
  try {
    return parse()
  } catch {
    return undefined
  }
}

/** An unsigned `TransactionKind` the owner asks the platform to pay gas for. */
export const checkSponsoredKind = (kindBytes: Uint8Array, pkg: SpendAccountPackage): SponsoredCheck => {
  const kind = parseOr(() => bcs.TransactionKind.parse(kindBytes))
  if (kind === undefined) return refuse("txKindBytes: not a transaction kind")
  if (kind.$kind !== "ProgrammableTransaction") return refuse("txKindBytes: not a programmable transaction")
  return checkSponsoredCommands(kind.ProgrammableTransaction, pkg)
}

export interface SponsorRules {
  readonly pkg: SpendAccountPackage
  /** The signed-in owner: the only sender the platform pays for. */
  readonly sender: string
  /** The sponsor's address: gas owner. */
  readonly sponsor: string
  readonly gasBudgetMax: bigint
  /** The chain's reference gas price: the sponsor never pays more per unit than it must. */
  readonly referenceGasPrice: bigint
}

/**
 * The whole `TransactionData` the sponsor would co-sign: this owner's
 * sponsored call and nothing else, gas owned by the sponsor and paid from
 * exactly one of its coins (several would be merged into one by the chain) at
 * the reference gas price, a budget within the cap, and no gas coin among the
 * call's own objects.
 */
export const checkSponsoredTransaction = (txBytes: Uint8Array, rules: SponsorRules): SponsoredCheck => {
  const data = parseOr(() => bcs.TransactionData.parse(txBytes))
  if (data === undefined) return refuse("txBytes: not transaction data")
  if (data.$kind !== "V1") return refuse("txBytes: unknown transaction data version")
  const { kind, sender, gasData } = data.V1
  if (!sameAddress(sender, rules.sender)) return refuse(`sender: expected ${rules.sender}, got ${sender}`)
  if (gasData.owner === null || gasData.owner === undefined || !sameAddress(gasData.owner, rules.sponsor)) return refuse("gasData.owner: not the sponsor")
  const price = BigInt(gasData.price ?? 0)
  if (price !== rules.referenceGasPrice) return refuse(`gasData.price: ${price} is not the reference gas price ${rules.referenceGasPrice}`)
  const budget = BigInt(gasData.budget ?? 0)
  if (budget <= 0n || budget > rules.gasBudgetMax) return refuse(`gasData.budget: ${budget} is over the cap ${rules.gasBudgetMax}`)
  const payment = gasData.payment ?? []
  if (payment.length !== 1) return refuse(`gasData.payment: ${payment.length} coins; the sponsor pays from exactly one`)
  if (kind.$kind !== "ProgrammableTransaction") return refuse("kind: not a programmable transaction")
  const ptb = kind.ProgrammableTransaction
  const paying = new Set(payment.map((p) => normalizeSuiAddress(p.objectId)))
  for (const input of ptb.inputs) {
    if (input.$kind === "Object") {
      const ref = input.Object
      const id = ref.$kind === "ImmOrOwnedObject" ? ref.ImmOrOwnedObject.objectId : ref.$kind === "Receiving" ? ref.Receiving.objectId : ref.SharedObject.objectId
      if (paying.has(normalizeSuiAddress(id))) return refuse("inputs: a gas coin is also an input of the call")
    }
  }
  return checkSponsoredCommands(ptb, rules.pkg)
}

/** The owned objects a kind's commands take: each must be its sender's, which only the chain can say. */
export const ownedInputIds = (kindBytes: Uint8Array): ReadonlyArray<string> => {
  const kind = parseOr(() => bcs.TransactionKind.parse(kindBytes))
  if (kind === undefined || kind.$kind !== "ProgrammableTransaction") return []
  return kind.ProgrammableTransaction.inputs.flatMap((input) =>
    input.$kind === "Object" && input.Object.$kind === "ImmOrOwnedObject" ? [normalizeSuiAddress(input.Object.ImmOrOwnedObject.objectId)] : []
  )
}
