import { normalizeSuiAddress } from "@mysten/sui/utils"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { addressLayout } from "@gateway/chain/PureArgument"
import { argumentError, type CallMove, decode, Failed, type FundsValue, type MoveCall, type MoveRuntime, type Value } from "./ProgrammableTransaction.ts"

const FRAMEWORK = normalizeSuiAddress("0x2")

/**
 * The framework functions that move funds between coins, balances and
 * address balances, as the SDK's `coinWithBalance` / `tx.balance` resolution
 * emits them (`@mysten/sui` transactions/intents/CoinWithBalance.ts) and as a
 * wallet sends into an address balance. Their rules are the framework's
 * (sui-framework coin.move, balance.move, funds_accumulator.move).
 */
export const FRAMEWORK_FUNCTIONS: ReadonlySet<string> = new Set([
  "coin::redeem_funds",
  "coin::send_funds",
  "coin::into_balance",
  "coin::from_balance",
  "coin::zero",
  "coin::destroy_zero",
  "balance::redeem_funds",
  "balance::send_funds",
  "balance::zero",
  "balance::destroy_zero"
])

/** Whether a Move call is one of the framework's fund functions this ledger runs. */
export const isFrameworkFundsCall = (call: Pick<MoveCall, "package" | "module" | "function">) =>
  normalizeSuiAddress(call.package) === FRAMEWORK && FRAMEWORK_FUNCTIONS.has(`${call.module}::${call.function}`)

/** `balance::destroy_zero` on a non-zero balance: `assert!(balance.value == 0, ENonZero)` (balance.move, `ENonZero = 0`). */
const nonZero = () =>
  new Failed({ MoveAbort: [{ module: { address: FRAMEWORK, name: "balance" }, function: 0, instruction: 0, functionName: "destroy_zero" }, 0n] })

const coinTypeOf = (call: MoveCall): string => {
  const [type, ...more] = call.typeArguments
  // The function takes one type argument; a call naming another number fails verification, not at a command.
  if (type === undefined || more.length > 0) throw new Failed({ VMVerificationOrDeserializationError: true })
  return normalizeCoinType(type)
}

const arity = (call: MoveCall, n: number) => {
  if (call.arguments.length !== n) throw argumentError(call.arguments.length, { IndexOutOfBounds: { idx: call.arguments.length } })
}

const argAt = (call: MoveCall, i: number) => {
  const arg = call.arguments[i]
  if (arg === undefined) throw argumentError(i, { IndexOutOfBounds: { idx: i } })
  return arg
}

/** Funds of the call's coin type: a `Withdrawal<Balance<T>>` or `Balance<T>` of another `T` is a type mismatch. */
const fundsOfType = (runtime: MoveRuntime, call: MoveCall, i: number, kind: FundsValue["kind"], coinType: string) => {
  const funds = runtime.fundsByValue(argAt(call, i), i, kind)
  if (funds.coinType !== coinType) throw argumentError(i, { TypeMismatch: true })
  return funds
}

const coinOfType = (runtime: MoveRuntime, call: MoveCall, i: number, coinType: string) => {
  const coin = runtime.coinByValue(argAt(call, i), i)
  if (coin.coin.coinType !== coinType) throw argumentError(i, { TypeMismatch: true })
  return coin
}

/** `Balance::into_coin(ctx)` (coin.move `from_balance`): a fresh `Coin` owned by the sender, to be used by the transaction. */
const newCoin = (runtime: MoveRuntime, coinType: string, balance: bigint): Value => {
  const id = runtime.createObject(runtime.freshId(), { _tag: "Coin", coinType, balance }, { _tag: "Address", address: runtime.sender })
  runtime.mustUse(id)
  return { _tag: "Object", id, mutable: true }
}

/**
 * `Withdrawal::redeem` (funds_accumulator.move `redeem` → `withdraw_impl`):
 * the whole limit leaves the owner's address balance, as an accumulator
 * Split; admission checked the balance holds it (the node's
 * `check_amounts_available`).
 */
const redeem = (runtime: MoveRuntime, withdrawal: FundsValue): bigint => {
  runtime.accumulate({ address: withdrawal.owner, coinType: withdrawal.coinType, amount: -withdrawal.amount })
  return withdrawal.amount
}

/** `funds_accumulator::add_impl`: the value joins the recipient's address balance, as an accumulator Merge. */
const send = (runtime: MoveRuntime, call: MoveCall, coinType: string, amount: bigint) => {
  const recipient = normalizeSuiAddress(decode(addressLayout, runtime.pureAt(argAt(call, 1), 1), 1))
  runtime.accumulate({ address: recipient, coinType, amount })
}

/** Runs one of `FRAMEWORK_FUNCTIONS`. */
export const frameworkFundsCalls: CallMove = (call, runtime) => {
  const coinType = coinTypeOf(call)
  switch (`${call.module}::${call.function}`) {
    // coin.move: `public fun redeem_funds<T>(withdrawal, ctx): Coin<T> { balance::redeem_funds(withdrawal).into_coin(ctx) }`
    case "coin::redeem_funds": {
      arity(call, 1)
      return [newCoin(runtime, coinType, redeem(runtime, fundsOfType(runtime, call, 0, "Withdrawal", coinType)))]
    }
    // balance.move: `public fun redeem_funds<T>(withdrawal): Balance<T> { withdrawal.redeem(..) }`
    case "balance::redeem_funds": {
      arity(call, 1)
      const withdrawal = fundsOfType(runtime, call, 0, "Withdrawal", coinType)
      return [runtime.makeFunds({ kind: "Balance", coinType, amount: redeem(runtime, withdrawal), owner: runtime.sender })]
    }
    // coin.move: `public fun send_funds<T>(coin, recipient) { balance::send_funds(coin.into_balance(), recipient) }`
    case "coin::send_funds": {
      arity(call, 2)
      const coin = coinOfType(runtime, call, 0, coinType)
      send(runtime, call, coinType, coin.coin.balance)
      runtime.destroy(coin.id)
      return []
    }
    // balance.move: `public fun send_funds<T>(balance, recipient) { funds_accumulator::add_impl(balance, recipient) }`
    case "balance::send_funds": {
      arity(call, 2)
      send(runtime, call, coinType, fundsOfType(runtime, call, 0, "Balance", coinType).amount)
      return []
    }
    case "coin::into_balance": {
      arity(call, 1)
      const coin = coinOfType(runtime, call, 0, coinType)
      runtime.destroy(coin.id)
      return [runtime.makeFunds({ kind: "Balance", coinType, amount: coin.coin.balance, owner: runtime.sender })]
    }
    case "coin::from_balance": {
      arity(call, 1)
      return [newCoin(runtime, coinType, fundsOfType(runtime, call, 0, "Balance", coinType).amount)]
    }
    case "coin::zero": {
      arity(call, 0)
      return [newCoin(runtime, coinType, 0n)]
    }
    case "balance::zero": {
      arity(call, 0)
      return [runtime.makeFunds({ kind: "Balance", coinType, amount: 0n, owner: runtime.sender })]
    }
    // coin.move `destroy_zero` → balance.move `destroy_zero`: aborts unless the value is 0.
    case "coin::destroy_zero": {
      arity(call, 1)
      const coin = coinOfType(runtime, call, 0, coinType)
      if (coin.coin.balance !== 0n) throw nonZero()
      runtime.destroy(coin.id)
      return []
    }
    case "balance::destroy_zero": {
      arity(call, 1)
      if (fundsOfType(runtime, call, 0, "Balance", coinType).amount !== 0n) throw nonZero()
      return []
    }
    default:
      throw new Failed({ FunctionNotFound: true })
  }
}
