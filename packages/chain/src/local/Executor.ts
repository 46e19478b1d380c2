import { bcs } from "@mysten/sui/bcs"
import { fromBase58, fromBase64, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import type { ChainEvent, ChainMoveCall } from "@gateway/domain/chain/ChainTransaction"
import {
  AbortCode,
  type AbortName,
  type EventName,
  Events,
  eventType,
  Functions,
  isFunctionName,
  GrantKind,
  MODULE,
  normalizeCoinType,
  SUI_COIN_TYPE,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import { byteVectorLayout, decodeExactly, describePure, type PureLayout, u64Layout, u64VectorLayout } from "../PureArgument.ts"
import { normalizeTypeArgument } from "../TypeArgument.ts"
import { deriveObjectId, type GrantData, type LedgerObject, type ObjectData, type Owner, withVersion } from "./LedgerObject.ts"

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type ProgrammableTransaction = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type Argument = ProgrammableTransaction["commands"][number] extends infer C ? C extends { MoveCall: { arguments: ReadonlyArray<infer A> } } ? A : never : never

/** The fixed computation charge of one transaction, in gas units; storage is not charged. */
export const GAS_UNITS = 1_000n

/** A transaction refused before execution: it changes nothing and gets no digest recorded. */
export class Rejection {
  readonly _tag = "Rejection"
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

/** A Move abort inside execution: the transaction fails, only gas is charged. */
class MoveAbort {
  readonly fn: string
  readonly code: number
  readonly name: string
  constructor(fn: string, code: number, name: string) {
    this.fn = fn
    this.code = code
    this.name = name
  }
  get message() {
    return `MoveAbort(${MODULE}::${this.fn}, ${this.code}) ${this.name}`
  }
}

/** Any other execution error Sui would report as a failed transaction. */
class ExecutionFailure {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

/** What a transaction did to objects, as its effects report it. */
export interface ObjectEffects {
  /** Objects created or mutated (including gas), at `version`. */
  readonly written: ReadonlyArray<LedgerObject>
  readonly deleted: ReadonlyArray<string>
  /** The gas coin after the charge (also in `written`). */
  readonly gasObject: LedgerObject
  /** The transaction's lamport version: every written object's new version. */
  readonly version: bigint
  readonly gasCharged: bigint
}

export interface Execution extends ObjectEffects {
  readonly status: "success" | "failure"
  readonly error: string | null
  readonly events: ReadonlyArray<ChainEvent>
  readonly calls: ReadonlyArray<ChainMoveCall>
}

/** The objects a transaction runs against; only looked up, never listed. */
export type ObjectReader = Pick<ReadonlyMap<string, LedgerObject>, "get" | "has">

/** An object argument remembers whether the transaction may mutate it (a shared input says so; owned ones always may). */
type Value =
  | { readonly _tag: "Object"; readonly id: string; readonly mutable: boolean }
  | { readonly _tag: "Pure"; readonly bytes: Uint8Array }

/** A pure argument of the given type; malformed bytes fail the transaction (gas charged), as Sui's InvalidBCSBytes does. */
const pure = <T>(layout: PureLayout<T>, type: string) => (bytes: Uint8Array): T => {
  const value = decodeExactly(layout, bytes)
  if (value === undefined) throw new ExecutionFailure(`CommandArgumentError { kind: InvalidBCSBytes }: not a ${type}`)
  return value
}

const u64 = (bytes: Uint8Array) => BigInt(pure(u64Layout, "u64")(bytes))
const address = (bytes: Uint8Array) => normalizeSuiAddress(pure(bcs.Address, "address")(bytes))
const u64s = (bytes: Uint8Array) => pure(u64VectorLayout, "vector<u64>")(bytes).map(BigInt)
const byteVector = (bytes: Uint8Array) => Uint8Array.from(pure(byteVectorLayout, "vector<u8>")(bytes))

/**
 * Executes one programmable transaction against a snapshot of objects, with
 * the `spend_account` module's rules and the few framework commands the flows
 * use. Pure: it returns what to write; the ledger decides whether to commit.
 */
export const execute = (input: {
  readonly packageId: string
  readonly data: TransactionData
  readonly digest: string
  readonly nowMs: bigint
  readonly referenceGasPrice: bigint
  readonly objects: ObjectReader
}): Execution | Rejection => {
  const { data, packageId } = input
  const tx = data.V1
  const pt = tx.kind.ProgrammableTransaction
  if (pt === undefined || pt === null) return new Rejection("only programmable transactions are supported")
  const sender = normalizeSuiAddress(tx.sender)
  const gasOwner = normalizeSuiAddress(tx.gasData.owner)
  const price = BigInt(tx.gasData.price)
  const budget = BigInt(tx.gasData.budget)
  if (price < input.referenceGasPrice) return new Rejection(`gas price ${price} below the reference gas price ${input.referenceGasPrice}`)
  if (budget < GAS_UNITS * price) return new Rejection(`gas budget ${budget} below the minimum ${GAS_UNITS * price}`)

  // Every owned input (gas included) must be the current version, owned by who uses it.
  const versions: Array<bigint> = []
  const checkOwned = (ref: { objectId: string; version: string | number; digest: string }, owner: string): Rejection | LedgerObject => {
    const object = input.objects.get(normalizeSuiAddress(ref.objectId))
    if (object === undefined) return new Rejection(`object ${ref.objectId} does not exist`)
    if (BigInt(ref.version) !== object.version || ref.digest !== object.digest) {
      return new Rejection(`object ${ref.objectId} is not at version ${ref.version}; current version is ${object.version}`)
    }
    if (object.owner._tag !== "Address" || object.owner.address !== owner) return new Rejection(`object ${ref.objectId} is not owned by ${owner}`)
    versions.push(object.version)
    return object
  }
  // An object may appear once among gas and inputs: otherwise its balance would count twice.
  const named = new Set<string>()
  const once = (objectId: string): Rejection | undefined => {
    const id = normalizeSuiAddress(objectId)
    if (named.has(id)) return new Rejection(`object ${id} is named more than once among the gas payment and the inputs`)
    named.add(id)
    return undefined
  }
  if (tx.gasData.payment.length === 0) return new Rejection("no gas payment")
  const gasCoins: Array<LedgerObject> = []
  for (const ref of tx.gasData.payment) {
    const duplicate = once(ref.objectId)
    if (duplicate !== undefined) return duplicate
    const coin = checkOwned(ref, gasOwner)
    if (coin instanceof Rejection) return coin
    if (coin.data._tag !== "Coin" || coin.data.coinType !== normalizeCoinType(SUI_COIN_TYPE)) return new Rejection(`gas object ${coin.id} is not a SUI coin`)
    gasCoins.push(coin)
  }
  const gasBalance = gasCoins.reduce((sum, c) => sum + (c.data._tag === "Coin" ? c.data.balance : 0n), 0n)
  if (gasBalance < budget) return new Rejection(`gas balance ${gasBalance} is below the budget ${budget}`)

  const inputs: Array<Value> = []
  for (const arg of pt.inputs) {
    if (arg.Pure) inputs.push({ _tag: "Pure", bytes: fromBase64(arg.Pure.bytes) })
    else if (arg.Object?.ImmOrOwnedObject) {
      const duplicate = once(arg.Object.ImmOrOwnedObject.objectId)
      if (duplicate !== undefined) return duplicate
      const object = checkOwned(arg.Object.ImmOrOwnedObject, sender)
      if (object instanceof Rejection) return object
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
      versions.push(object.version)
      inputs.push({ _tag: "Object", id: object.id, mutable: shared.mutable })
    } else return new Rejection("unsupported input kind")
  }

  const lamport = versions.reduce((a, b) => (a > b ? a : b), 0n) + 1n
  const digestBytes = fromBase58(input.digest)
  const gasCharged = GAS_UNITS * price
  const [primaryGas, ...mergedGas] = gasCoins
  if (primaryGas === undefined) return new Rejection("no gas payment")

  // Gas is smashed into the first coin and charged whatever happens next.
  const gasAfterCharge = (extra: bigint) =>
    withVersion({ ...primaryGas, data: { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: gasBalance - gasCharged + extra } }, lamport)

  const working = new Map<string, LedgerObject>()
  const deleted = new Set<string>()
  const events: Array<ChainEvent> = []
  const calls: Array<ChainMoveCall> = []
  let created = 0
  const read = (id: string) => {
    if (deleted.has(id)) throw new ExecutionFailure(`object ${id} was already consumed`)
    const object = working.get(id) ?? input.objects.get(id)
    if (object === undefined) throw new ExecutionFailure(`object ${id} does not exist`)
    return object
  }
  const write = (object: LedgerObject, data: ObjectData, owner: Owner = object.owner) =>
    working.set(object.id, { ...object, data, owner })
  const create = (data: ObjectData, owner: Owner) => {
    const id = deriveObjectId(digestBytes, created++)
    const object: LedgerObject = { id, version: 0n, digest: "", owner, createdBy: input.digest, data }
    working.set(id, object)
    return id
  }
  const emit = <T>(name: EventName, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T) => {
    events.push({
      type: eventType(packageId, name),
      sender,
      parsedJson: JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))),
      bcs: toBase64(layout.serialize(value).toBytes())
    })
  }

  // The gas coin is usable as an argument; its working balance excludes the budget.
  const GAS = primaryGas.id
  write(primaryGas, { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: gasBalance - budget })
  for (const coin of mergedGas) deleted.add(coin.id)

  const results: Array<ReadonlyArray<Value>> = []
  const resolve = (arg: Argument): Value => {
    switch (arg.$kind) {
      case "GasCoin":
        return { _tag: "Object", id: GAS, mutable: true }
      case "Input": {
        const v = inputs[arg.Input]
        if (v === undefined) throw new ExecutionFailure(`no input ${arg.Input}`)
        return v
      }
      case "Result": {
        const v = results[arg.Result]?.[0]
        if (v === undefined) throw new ExecutionFailure(`no result ${arg.Result}`)
        return v
      }
      case "NestedResult": {
        const [i, j] = arg.NestedResult
        const v = results[i]?.[j]
        if (v === undefined) throw new ExecutionFailure(`no result ${i}.${j}`)
        return v
      }
      default:
        throw new ExecutionFailure("unsupported argument")
    }
  }
  const objectOf = (arg: Argument) => {
    const v = resolve(arg)
    if (v._tag !== "Object") throw new ExecutionFailure("expected an object argument")
    return read(v.id)
  }
  const pureOf = (arg: Argument) => {
    const v = resolve(arg)
    if (v._tag !== "Pure") throw new ExecutionFailure("expected a pure argument")
    return v.bytes
  }
  const coinOf = (arg: Argument) => {
    const object = objectOf(arg)
    if (object.data._tag !== "Coin") throw new ExecutionFailure(`object ${object.id} is not a coin`)
    return { object, coin: object.data }
  }
  /** Values created in this transaction that must end up consumed or transferred (a Coin has no `drop`). */
  const dangling = new Set<string>()

  const moveCall = (call: NonNullable<ProgrammableTransaction["commands"][number]["MoveCall"]>): ReadonlyArray<Value> => {
    const fn = call.function
    if (normalizeSuiAddress(call.package) !== normalizeSuiAddress(packageId) || call.module !== MODULE || !isFunctionName(fn)) {
      throw new ExecutionFailure(`function ${call.package}::${call.module}::${call.function} is not available on this ledger`)
    }
    const spec = Functions[fn]
    if (call.arguments.length !== spec.parameters.length || call.typeArguments.length !== spec.typeParameters) {
      throw new ExecutionFailure(`${fn}: wrong number of arguments`)
    }
    const args = call.arguments
    const arg = (i: number) => {
      const a = args[i]
      if (a === undefined) throw new ExecutionFailure(`${fn}: missing argument ${i}`)
      return a
    }
    calls.push({
      package: normalizeSuiAddress(call.package),
      module: call.module,
      function: call.function,
      typeArguments: call.typeArguments.map(normalizeTypeArgument),
      arguments: spec.parameters.map((kind, i) => {
        const v = resolve(arg(i))
        return v._tag === "Object" ? v.id : describePure(kind, v.bytes)
      })
    })
    const abort = (name: AbortName): never => {
      throw new MoveAbort(fn, AbortCode[name], name)
    }
    const typeArg = call.typeArguments[0] === undefined ? undefined : normalizeTypeArgument(call.typeArguments[0])
    /** The object at parameter `i`; a `&mut` parameter refuses a shared object the transaction declared immutable. */
    const objectAt = (i: number) => {
      const v = resolve(arg(i))
      if (v._tag !== "Object") throw new ExecutionFailure(`${fn}: argument ${i} is not an object`)
      const kind = spec.parameters[i]
      if ((kind === "pool_mut" || kind === "grant_mut") && !v.mutable) {
        throw new ExecutionFailure(`CommandArgumentError { arg_idx: ${i}, kind: InvalidObjectByMutRef } in ${fn}`)
      }
      return read(v.id)
    }
    const poolAt = (i: number, mutable: boolean) => {
      const object = objectAt(i)
      if (object.data._tag !== "Pool" || object.data.coinType !== typeArg) throw new ExecutionFailure(`${fn}: argument ${i} is not a Pool<${typeArg}>`)
      if (mutable && object.owner._tag !== "Shared") throw new ExecutionFailure(`${fn}: pool is not shared`)
      return { object, pool: object.data }
    }
    const grantAt = (i: number) => {
      const object = objectAt(i)
      if (object.data._tag !== "Grant") throw new ExecutionFailure(`${fn}: argument ${i} is not a Grant`)
      return { object, grant: object.data }
    }
    const clockAt = (i: number) => {
      const object = objectAt(i)
      if (object.data._tag !== "Clock") throw new ExecutionFailure(`${fn}: argument ${i} is not the Clock`)
      return input.nowMs
    }
    const consumeCoin = (i: number) => {
      const { object, coin } = coinOf(arg(i))
      if (coin.coinType !== typeArg) throw new ExecutionFailure(`${fn}: coin is not a Coin<${typeArg}>`)
      if (object.id === GAS) throw new ExecutionFailure(`${fn}: the gas coin cannot be taken by value`)
      deleted.add(object.id)
      dangling.delete(object.id)
      return coin.balance
    }
    const setPaused = (paused: boolean, kind: number) => {
      const { object, grant } = grantAt(0)
      if (grant.owner !== sender) abort("ENotOwner")
      if (grant.kind !== kind) abort("EWrongKind")
      if (grant.revoked) abort("ERevoked")
      if (paused && grant.paused) abort("EAlreadyPaused")
      if (!paused && !grant.paused) abort("ENotPaused")
      write(object, { ...grant, paused })
      emit("GrantPauseSet", Events.GrantPauseSet, { grant_id: object.id, pool_id: grant.poolId, owner: grant.owner, paused })
      return []
    }

    switch (fn) {
      case "create_pool": {
        if (typeArg === undefined) throw new ExecutionFailure("create_pool: missing type argument")
        const balance = consumeCoin(0)
        const id = create({ _tag: "Pool", coinType: typeArg, owner: sender, balance }, { _tag: "Shared", initialSharedVersion: lamport })
        emit("PoolCreated", Events.PoolCreated, { pool_id: id, owner: sender, coin_type: typeNameOf(typeArg) })
        return []
      }
      case "deposit": {
        const { object, pool } = poolAt(0, true)
        if (pool.owner !== sender) abort("ENotOwner")
        const amount = consumeCoin(1)
        write(object, { ...pool, balance: pool.balance + amount })
        emit("Deposited", Events.Deposited, { pool_id: object.id, amount })
        return []
      }
      case "withdraw": {
        const { object, pool } = poolAt(0, true)
        if (pool.owner !== sender) abort("ENotOwner")
        const amount = u64(pureOf(arg(1)))
        if (pool.balance < amount) abort("EInsufficientBalance")
        write(object, { ...pool, balance: pool.balance - amount })
        create({ _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: pool.owner })
        return []
      }
      case "create_policy_grant": {
        const { object, pool } = poolAt(0, false)
        const delegate = address(pureOf(arg(1)))
        const sessionCap = u64(pureOf(arg(2)))
        const maxPerPayment = u64(pureOf(arg(3)))
        const expiryMs = u64(pureOf(arg(4)))
        const policyIds = u64s(pureOf(arg(5)))
        const now = clockAt(6)
        if (pool.owner !== sender) abort("ENotOwner")
        if (maxPerPayment === 0n || maxPerPayment > sessionCap) abort("EInvalidCaps")
        if (expiryMs !== 0n && expiryMs <= now) abort("EExpired")
        const grant: GrantData = {
          _tag: "Grant",
          poolId: object.id,
          owner: sender,
          delegate,
          sessionCap,
          spent: 0n,
          maxPerPayment,
          expiryMs,
          paused: false,
          revoked: false,
          policyIds,
          kind: GrantKind.policy
        }
        const id = create(grant, { _tag: "Shared", initialSharedVersion: lamport })
        emit("GrantCreated", Events.GrantCreated, {
          grant_id: id,
          pool_id: object.id,
          owner: sender,
          delegate,
          coin_type: typeNameOf(pool.coinType),
          session_cap: sessionCap,
          max_per_payment: maxPerPayment,
          expiry_ms: expiryMs,
          policy_ids: policyIds
        })
        return []
      }
      case "revoke_grant": {
        const { object, grant } = grantAt(0)
        if (grant.owner !== sender) abort("ENotOwner")
        if (grant.revoked) abort("EAlreadyRevoked")
        write(object, { ...grant, revoked: true })
        emit("GrantRevoked", Events.GrantRevoked, { grant_id: object.id, pool_id: grant.poolId, owner: grant.owner })
        return []
      }
      case "pause_grant":
        return setPaused(true, GrantKind.policy)
      case "pause_spend_grant":
        return setPaused(true, GrantKind.spend)
      case "pause_open_grant":
        return setPaused(true, GrantKind.open)
      case "resume_grant":
        return setPaused(false, GrantKind.policy)
      case "resume_spend_grant":
        return setPaused(false, GrantKind.spend)
      case "resume_open_grant":
        return setPaused(false, GrantKind.open)
      case "pay": {
        const { object: grantObject, grant } = grantAt(0)
        const { object: poolObject, pool } = poolAt(1, true)
        const amount = u64(pureOf(arg(2)))
        const recipient = address(pureOf(arg(3)))
        const memo = byteVector(pureOf(arg(4)))
        const now = clockAt(5)
        if (grant.delegate !== sender) abort("ENotDelegate")
        if (grant.poolId !== poolObject.id) abort("EWrongPool")
        if (amount === 0n) abort("EZeroAmount")
        if (grant.revoked) abort("ERevoked")
        if (grant.paused) abort("EPaused")
        if (grant.expiryMs !== 0n && now >= grant.expiryMs) abort("EExpired")
        if (amount > grant.maxPerPayment) abort("EExceedsMaxPerPayment")
        if (amount > grant.sessionCap - grant.spent) abort("EExceedsSessionCap")
        if (pool.balance < amount) abort("EInsufficientBalance")
        const spent = grant.spent + amount
        write(grantObject, { ...grant, spent })
        write(poolObject, { ...pool, balance: pool.balance - amount })
        create({ _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: recipient })
        emit("PaymentMade", Events.PaymentMade, {
          grant_id: grantObject.id,
          pool_id: poolObject.id,
          delegate: sender,
          recipient,
          amount,
          spent,
          memo: Array.from(memo)
        })
        return []
      }
    }
  }

  try {
    for (const command of pt.commands) {
      if (command.MoveCall) results.push(moveCall(command.MoveCall))
      else if (command.SplitCoins) {
        const { object, coin } = coinOf(command.SplitCoins.coin)
        const amounts = command.SplitCoins.amounts.map((a) => u64(pureOf(a)))
        const total = amounts.reduce((a, b) => a + b, 0n)
        if (total > coin.balance) throw new ExecutionFailure(`InsufficientCoinBalance in SplitCoins: ${total} > ${coin.balance}`)
        write(object, { ...coin, balance: coin.balance - total })
        results.push(amounts.map((balance) => {
          const id = create({ _tag: "Coin", coinType: coin.coinType, balance }, { _tag: "Address", address: sender })
          dangling.add(id)
          return { _tag: "Object", id, mutable: true }
        }))
      } else if (command.MergeCoins) {
        const { object, coin } = coinOf(command.MergeCoins.destination)
        let balance = coin.balance
        for (const source of command.MergeCoins.sources) {
          const merged = coinOf(source)
          if (merged.coin.coinType !== coin.coinType) throw new ExecutionFailure("MergeCoins of different coin types")
          if (merged.object.id === GAS || merged.object.id === object.id) throw new ExecutionFailure("MergeCoins cannot consume this coin")
          balance += merged.coin.balance
          deleted.add(merged.object.id)
          dangling.delete(merged.object.id)
        }
        write(read(object.id), { ...coin, balance })
        results.push([])
      } else if (command.TransferObjects) {
        const recipient = address(pureOf(command.TransferObjects.address))
        for (const target of command.TransferObjects.objects) {
          const object = objectOf(target)
          if (object.owner._tag === "Shared" || object.owner._tag === "Immutable") throw new ExecutionFailure(`object ${object.id} cannot be transferred`)
          write(object, object.data, { _tag: "Address", address: recipient })
          dangling.delete(object.id)
        }
        results.push([])
      } else throw new ExecutionFailure("unsupported command")
    }
    if (dangling.size > 0) throw new ExecutionFailure("UnusedValueWithoutDrop: a created coin was neither used nor transferred")
  } catch (error) {
    if (error instanceof MoveAbort || error instanceof ExecutionFailure) {
      const gasObject = gasAfterCharge(0n)
      return {
        status: "failure",
        error: error.message,
        written: [gasObject],
        deleted: mergedGas.map((c) => c.id),
        gasObject,
        version: lamport,
        events: [],
        calls,
        gasCharged
      }
    }
    throw error
  }

  const gasWorking = working.get(GAS) ?? primaryGas
  const gasLeft = gasWorking.data._tag === "Coin" ? gasWorking.data.balance : 0n
  const gasObject = withVersion({ ...gasAfterCharge(gasLeft - (gasBalance - budget)), owner: gasWorking.owner }, lamport)
  working.set(GAS, gasObject)
  return {
    status: "success",
    error: null,
    written: [...working.values()].filter((o) => !deleted.has(o.id)).map((o) => withVersion(o, lamport)),
    deleted: [...deleted].filter((id) => input.objects.has(id)),
    gasObject,
    version: lamport,
    events,
    calls,
    gasCharged
  }
}
