import { bcs } from "@mysten/sui/bcs"
import { fromBase58, fromBase64, normalizeStructTag, normalizeSuiAddress, toBase64, toHex } from "@mysten/sui/utils"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import {
  AbortCode,
  type AbortName,
  CLOCK_OBJECT_ID,
  type EventName,
  Events,
  eventType,
  Functions,
  grantType,
  GrantKind,
  isFunctionName,
  MODULE,
  normalizeCoinType,
  PACKAGE_VERSION,
  poolIdOf,
  registryType,
  type SpendAccountPackage,
  SUI_COIN_TYPE,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import { byteVectorLayout, decodeExactly, type PureLayout, u64Layout, u64VectorLayout } from "../PureArgument.ts"
import { normalizeTypeArgument } from "../TypeArgument.ts"
import type { Execution, ExecutionFailure, ObjectChange } from "./Execution.ts"
import {
  deriveObjectId,
  type GrantData,
  type LedgerObject,
  type ObjectData,
  objectType,
  type Owner,
  type PoolData,
  storageCost,
  withVersion
} from "./LedgerObject.ts"

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type ProgrammableTransaction = NonNullable<TransactionData["V1"]["kind"]["ProgrammableTransaction"]>
type Command = ProgrammableTransaction["commands"][number]
type MoveCall = NonNullable<Command["MoveCall"]>
type Argument = MoveCall["arguments"][number]
type CommandArgumentErrorKind = Extract<ExecutionFailure, { CommandArgumentError: unknown }>["CommandArgumentError"]["kind"]
type MoveLocation = Extract<ExecutionFailure, { MoveAbort: unknown }>["MoveAbort"][0]

/** The fixed computation charge of one transaction, in gas units: Sui's minimum, which these calls stay within. */
export const GAS_UNITS = 1_000n
/** The share of an object's storage rebate a transaction that rewrites or deletes it gets back (Sui's `storage_rebate_rate`, 99%). */
const REBATE_BASIS_POINTS = 9_900n

/** A transaction refused before execution: it changes nothing and gets no digest recorded. */
export class Rejection {
  readonly _tag = "Rejection"
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

/** The objects a transaction runs against; only looked up, never listed. */
export type ObjectReader = Pick<ReadonlyMap<string, LedgerObject>, "get" | "has">

export interface ExecuteInput {
  readonly pkg: SpendAccountPackage
  readonly data: TransactionData
  readonly digest: string
  readonly nowMs: bigint
  readonly referenceGasPrice: bigint
  readonly objects: ObjectReader
}

/**
 * The index of each function in the compiled module, which Sui's
 * `MoveLocation.function` names: declaration order in spend_account.move
 * (`init` first, the private `set_paused` last; test-only ones are not published).
 */
export const FunctionIndex = {
  init: 0,
  create_pool: 1,
  deposit: 2,
  withdraw: 3,
  create_policy_grant: 4,
  revoke_grant: 5,
  pause_grant: 6,
  pause_spend_grant: 7,
  pause_open_grant: 8,
  resume_grant: 9,
  resume_spend_grant: 10,
  resume_open_grant: 11,
  pay: 12,
  migrate_pool: 13,
  migrate_grant: 14,
  set_paused: 15
} as const

const FRAMEWORK = normalizeSuiAddress("0x2")

/**
 * A location in Move code. The bytecode offset of the failing instruction is
 * only known to the compiled module, which the ledger does not load: it
 * reports 0.
 */
const location = (address: string, module: string, fn: string, index: number): MoveLocation => ({
  module: { address, name: module },
  function: index,
  instruction: 0,
  functionName: fn
})

/** Execution stops: the transaction fails with `error` at the command that raised it. */
class Failed {
  readonly error: ExecutionFailure
  constructor(error: ExecutionFailure) {
    this.error = error
  }
}

const argumentError = (argIdx: number, kind: CommandArgumentErrorKind) => new Failed({ CommandArgumentError: { argIdx, kind } })

/** A value the transaction holds: an input or result object (mutable says whether it may be borrowed `&mut`), or pure bytes. */
type Value =
  | { readonly _tag: "Object"; readonly id: string; readonly mutable: boolean }
  | { readonly _tag: "Pure"; readonly bytes: Uint8Array }

/** An object's contents and owner while the transaction runs. */
interface Working {
  readonly data: ObjectData
  readonly owner: Owner
}

const decode = <T>(layout: PureLayout<T>, bytes: Uint8Array, argIdx: number): T => {
  const value = decodeExactly(layout, bytes)
  if (value === undefined) throw argumentError(argIdx, { InvalidBCSBytes: true })
  return value
}

const addressLayout = bcs.Address

/**
 * Executes one programmable transaction against a snapshot of objects, with
 * the `spend_account` module's rules (spend_account.move, cited line by line)
 * and the framework commands the flows use. Pure: it answers what Sui's
 * effects would say; the ledger decides whether to commit.
 */
export const execute = (input: ExecuteInput): Execution | Rejection => {
  const { data, pkg } = input
  const originalId = normalizeSuiAddress(pkg.originalId)
  const publishedAt = normalizeSuiAddress(pkg.publishedAt)
  const tx = data.V1
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

  // === Admission: every input exists, at its version, owned by whom uses it, named once ===
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

  /** Every input object, in order; `mutable` inputs (owned, or shared taken `&mut`) get a new version whatever happens. */
  const inputObjects = new Map<string, { readonly object: LedgerObject; readonly mutable: boolean }>()
  const inputs: Array<Value> = []
  for (const arg of pt.inputs) {
    if (arg.Pure) inputs.push({ _tag: "Pure", bytes: fromBase64(arg.Pure.bytes) })
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
  const digestBytes = fromBase58(input.digest)
  const GAS = primaryGas.id

  // === Execution state ===
  const working = new Map<string, Working>()
  const deleted = new Set<string>()
  const events: Array<ChainEvent> = []
  let creations = 0
  /** Values created in this transaction that must end up consumed or transferred (a Coin has no `drop`): id → where it was made. */
  const dangling = new Map<string, { readonly resultIdx: number; readonly secondaryIdx: number }>()

  const current = (id: string): Working | undefined => {
    if (deleted.has(id)) return undefined
    const touched = working.get(id)
    if (touched !== undefined) return touched
    const stored = input.objects.get(id)
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
  /** `object::new(ctx)`: the transaction's next fresh id. */
  const freshId = () => deriveObjectId(digestBytes, creations++)
  const destroy = (id: string) => {
    deleted.add(id)
    dangling.delete(id)
  }
  const emit = <T>(name: EventName, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T) => {
    events.push({
      type: eventType(originalId, name),
      sender,
      parsedJson: JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))),
      bcs: toBase64(layout.serialize(value).toBytes())
    })
  }

  // The gas coin is usable as an argument; while the transaction runs it holds its balance less the budget.
  working.set(GAS, { data: { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: gasBalance - budget }, owner: primaryGas.owner })
  for (const coin of mergedGas) deleted.add(coin.id)

  const results: Array<ReadonlyArray<Value>> = []
  const resolve = (arg: Argument, argIdx: number): Value => {
    switch (arg.$kind) {
      case "GasCoin":
        return { _tag: "Object", id: GAS, mutable: true }
      case "Input": {
        const v = inputs[arg.Input]
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
  /** An object argument still holding a value, with its current state. */
  const objectAt = (arg: Argument, argIdx: number) => {
    const v = resolve(arg, argIdx)
    if (v._tag !== "Object") throw argumentError(argIdx, { InvalidUsageOfPureArg: true })
    const state = current(v.id)
    if (state === undefined) throw argumentError(argIdx, { ArgumentWithoutValue: true })
    return { id: v.id, mutable: v.mutable, ...state }
  }
  const coinAt = (arg: Argument, argIdx: number) => {
    const object = objectAt(arg, argIdx)
    if (object.data._tag !== "Coin") throw argumentError(argIdx, { TypeMismatch: true })
    return { id: object.id, mutable: object.mutable, owner: object.owner, coin: object.data }
  }
  /** A coin taken by value: never the gas coin, which only TransferObjects may move. */
  const coinByValue = (arg: Argument, argIdx: number) => {
    const coin = coinAt(arg, argIdx)
    if (coin.id === GAS) throw argumentError(argIdx, { InvalidGasCoinUsage: true })
    return coin
  }

  // === The module, in spend_account.move's order ===

  const moveCall = (call: MoveCall): ReadonlyArray<Value> => {
    const fn = call.function
    if (call.module !== MODULE || !isFunctionName(fn)) throw new Failed({ FunctionNotFound: true })
    const spec = Functions[fn]
    if (call.typeArguments.length !== spec.typeParameters) throw new Failed({ TypeArityMismatch: true })
    if (call.arguments.length !== spec.parameters.length) throw new Failed({ ArityMismatch: true })
    const [rawTypeArg] = call.typeArguments
    const typeArg = rawTypeArg === undefined ? undefined : normalizeTypeArgument(rawTypeArg)
    /** `T`, for the generic functions (their arity was checked above). */
    const T = (): string => {
      if (typeArg === undefined) throw new Failed({ TypeArityMismatch: true })
      return typeArg
    }
    const abort = (name: AbortName, at: keyof typeof FunctionIndex = fn): never => {
      throw new Failed({ MoveAbort: [location(publishedAt, MODULE, at, FunctionIndex[at]), AbortCode[name]] })
    }

    // Every argument is typed and decoded before the function body runs, as Sui's PTB runtime does.
    const args = call.arguments
    const arg = (i: number): Argument => {
      const a = args[i]
      if (a === undefined) throw new Failed({ ArityMismatch: true })
      return a
    }
    const expectType = (i: number, want: string) => {
      const object = objectAt(arg(i), i)
      if (objectType(object.data, originalId) !== want) throw argumentError(i, { TypeMismatch: true })
      return object
    }
    const mutableObject = (i: number, want: string) => {
      const object = expectType(i, want)
      if (!object.mutable) throw argumentError(i, { InvalidObjectByMutRef: true })
      return object
    }
    const poolMut = (i: number) => {
      const object = mutableObject(i, normalizeStructTag(`${originalId}::${MODULE}::Pool<${T()}>`))
      if (object.data._tag !== "Pool") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, pool: object.data }
    }
    const grantMut = (i: number) => {
      const object = mutableObject(i, normalizeStructTag(grantType(originalId)))
      if (object.data._tag !== "Grant") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, grant: object.data }
    }
    const clock = (i: number) => {
      expectType(i, objectType({ _tag: "Clock" }, originalId))
      return input.nowMs
    }
    const coinOfT = (i: number) => {
      const coin = coinByValue(arg(i), i)
      if (objectType(coin.coin, originalId) !== normalizeStructTag(`0x2::coin::Coin<${T()}>`)) throw argumentError(i, { TypeMismatch: true })
      return coin
    }
    const u64 = (i: number) => BigInt(decode(u64Layout, pureAt(arg(i), i), i))
    const address = (i: number) => normalizeSuiAddress(decode(addressLayout, pureAt(arg(i), i), i))
    const bytes = (i: number) => Uint8Array.from(decode(byteVectorLayout, pureAt(arg(i), i), i))
    const u64s = (i: number) => decode(u64VectorLayout, pureAt(arg(i), i), i).map(BigInt)

    const setPaused = (kind: number, paused: boolean) => {
      const { id, grant } = grantMut(0)
      if (grant.version !== PACKAGE_VERSION) abort("EWrongVersion", "set_paused") // spend_account.move:394
      if (grant.owner !== sender) abort("ENotOwner", "set_paused") // spend_account.move:395
      if (grant.kind !== kind) abort("EWrongKind", "set_paused") // spend_account.move:396
      if (grant.revoked) abort("ERevoked", "set_paused") // spend_account.move:397
      if (paused && grant.paused) abort("EAlreadyPaused", "set_paused") // spend_account.move:399
      if (!paused && !grant.paused) abort("ENotPaused", "set_paused") // spend_account.move:401
      write(id, { ...grant, paused })
      emit("GrantPauseSet", Events.GrantPauseSet, { grant_id: id, pool_id: grant.poolId, owner: grant.owner, paused })
      return []
    }

    switch (fn) {
      case "create_pool": {
        const registry = mutableObject(0, normalizeStructTag(registryType(originalId)))
        const coin = coinOfT(1)
        // spend_account.move:198: `derived_object::claim` aborts when the (owner, T) pool was claimed before.
        const poolId = poolIdOf({ originalId, registryId: registry.id }, sender, T())
        if (current(poolId) !== undefined) {
          throw new Failed({ MoveAbort: [location(FRAMEWORK, "derived_object", "claim", 0), 0n] })
        }
        destroy(coin.id)
        const pool: PoolData = {
          _tag: "Pool",
          coinType: T(),
          version: PACKAGE_VERSION,
          owner: sender,
          balance: coin.coin.balance,
          noncesId: freshId(),
          nonces: []
        }
        createObject(poolId, pool, { _tag: "Shared", initialSharedVersion: lamport })
        emit("PoolCreated", Events.PoolCreated, { pool_id: poolId, owner: sender, coin_type: typeNameOf(T()) })
        return []
      }
      case "deposit": {
        const { id, pool } = poolMut(0)
        const coin = coinOfT(1)
        if (pool.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:214
        if (pool.owner !== sender) abort("ENotOwner") // spend_account.move:215
        const balance = pool.balance + coin.coin.balance
        // spend_account.move:217: `balance::join` adds in u64; past its maximum Move's arithmetic aborts.
        if (balance > U64_MAX) throw new Failed({ MovePrimitiveRuntimeError: location(FRAMEWORK, "balance", "join", BALANCE_JOIN_INDEX) })
        destroy(coin.id)
        write(id, { ...pool, balance })
        emit("Deposited", Events.Deposited, { pool_id: id, amount: coin.coin.balance })
        return []
      }
      case "withdraw": {
        const { id, pool } = poolMut(0)
        const amount = u64(1)
        if (pool.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:223
        if (pool.owner !== sender) abort("ENotOwner") // spend_account.move:224
        if (pool.balance < amount) abort("EInsufficientBalance") // spend_account.move:225
        write(id, { ...pool, balance: pool.balance - amount })
        createObject(freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: pool.owner })
        return []
      }
      case "create_policy_grant": {
        const { id, pool } = poolMut(0)
        const nonce = bytes(1)
        const deadlineMs = u64(2)
        const delegate = address(3)
        const sessionCap = u64(4)
        const maxPerPayment = u64(5)
        const expiryMs = u64(6)
        const policyIds = u64s(7)
        const now = clock(8)
        const nonceHex = toHex(nonce)
        if (pool.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:249
        if (pool.owner !== sender) abort("ENotOwner") // spend_account.move:250
        if (now > deadlineMs) abort("EDeadlinePassed") // spend_account.move:251
        if (pool.nonces.includes(nonceHex)) abort("ENonceUsed") // spend_account.move:252
        if (maxPerPayment === 0n || maxPerPayment > sessionCap) abort("EInvalidCaps") // spend_account.move:254
        if (expiryMs !== 0n && expiryMs <= now) abort("EExpired") // spend_account.move:255
        write(id, { ...pool, nonces: [...pool.nonces, nonceHex] }) // spend_account.move:253
        const grant: GrantData = {
          _tag: "Grant",
          version: PACKAGE_VERSION,
          poolId: id,
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
        const grantId = createObject(freshId(), grant, { _tag: "Shared", initialSharedVersion: lamport })
        emit("GrantCreated", Events.GrantCreated, {
          grant_id: grantId,
          nonce: Array.from(nonce),
          pool_id: id,
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
        const { id, grant } = grantMut(0)
        if (grant.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:290
        if (grant.owner !== sender) abort("ENotOwner") // spend_account.move:291
        if (grant.revoked) abort("EAlreadyRevoked") // spend_account.move:292
        write(id, { ...grant, revoked: true })
        emit("GrantRevoked", Events.GrantRevoked, { grant_id: id, pool_id: grant.poolId, owner: grant.owner })
        return []
      }
      case "pause_grant":
        return setPaused(GrantKind.policy, true)
      case "pause_spend_grant":
        return setPaused(GrantKind.spend, true)
      case "pause_open_grant":
        return setPaused(GrantKind.open, true)
      case "resume_grant":
        return setPaused(GrantKind.policy, false)
      case "resume_spend_grant":
        return setPaused(GrantKind.spend, false)
      case "resume_open_grant":
        return setPaused(GrantKind.open, false)
      case "pay": {
        const { id: grantId, grant } = grantMut(0)
        const { id: poolId, pool } = poolMut(1)
        const amount = u64(2)
        const recipient = address(3)
        const memo = bytes(4)
        const now = clock(5)
        if (grant.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:344
        if (pool.version !== PACKAGE_VERSION) abort("EWrongVersion") // spend_account.move:345
        if (grant.delegate !== sender) abort("ENotDelegate") // spend_account.move:346
        if (grant.poolId !== poolId) abort("EWrongPool") // spend_account.move:347
        if (amount === 0n) abort("EZeroAmount") // spend_account.move:348
        if (grant.revoked) abort("ERevoked") // spend_account.move:349
        if (grant.paused) abort("EPaused") // spend_account.move:350
        if (grant.expiryMs !== 0n && now >= grant.expiryMs) abort("EExpired") // spend_account.move:351
        if (amount > grant.maxPerPayment) abort("EExceedsMaxPerPayment") // spend_account.move:352
        if (amount > grant.sessionCap - grant.spent) abort("EExceedsSessionCap") // spend_account.move:355
        if (pool.balance < amount) abort("EInsufficientBalance") // spend_account.move:356
        const spent = grant.spent + amount
        write(poolId, { ...pool, balance: pool.balance - amount })
        createObject(freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: recipient })
        write(grantId, { ...grant, spent })
        emit("PaymentMade", Events.PaymentMade, {
          grant_id: grantId,
          pool_id: poolId,
          delegate: sender,
          recipient,
          amount,
          spent,
          memo: Array.from(memo)
        })
        return []
      }
      case "migrate_pool": {
        const { id, pool } = poolMut(0)
        if (pool.owner !== sender) abort("ENotOwner") // spend_account.move:377
        if (pool.version >= PACKAGE_VERSION) abort("ENotUpgrade") // spend_account.move:378
        write(id, { ...pool, version: PACKAGE_VERSION })
        return []
      }
      case "migrate_grant": {
        const { id, grant } = grantMut(0)
        if (grant.owner !== sender) abort("ENotOwner") // spend_account.move:384
        if (grant.version >= PACKAGE_VERSION) abort("ENotUpgrade") // spend_account.move:385
        write(id, { ...grant, version: PACKAGE_VERSION })
        return []
      }
    }
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
    const objects = command.objects.map((a, i) => {
      const object = objectAt(a, i)
      if (object.owner._tag !== "Address") throw argumentError(i, { InvalidObjectByValue: true })
      return object
    })
    const addressIdx = command.objects.length
    const recipient = normalizeSuiAddress(decode(addressLayout, pureAt(command.address, addressIdx), addressIdx))
    for (const object of objects) {
      write(object.id, object.data, { _tag: "Address", address: recipient })
      dangling.delete(object.id)
    }
    return []
  }

  const run = (command: Command, index: number): ReadonlyArray<Value> => {
    if (command.MoveCall) return moveCall(command.MoveCall)
    if (command.SplitCoins) return splitCoins(command.SplitCoins, index)
    if (command.MergeCoins) return mergeCoins(command.MergeCoins)
    if (command.TransferObjects) return transferObjects(command.TransferObjects)
    throw new Failed({ FeatureNotYetSupported: true })
  }
  const runAll = (): Execution["status"] => {
    for (const [index, command] of pt.commands.entries()) {
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
  let status = runAll()

  // === Effects: what is written, and what it costs ===

  const mutableInputs = [primaryGas, ...[...inputObjects.values()].filter((i) => i.mutable).map((i) => i.object)]
  /** Objects as a failed transaction leaves them: mutable inputs at their old contents, merged gas deleted, nothing created. */
  const failureChanges = (): Array<Draft> => [
    ...mutableInputs.map((object) => ({ id: object.id, before: object, after: { data: object.data, owner: object.owner } })),
    ...mergedGas.map((object) => ({ id: object.id, before: object, after: undefined }))
  ]
  const successChanges = (): Array<Draft> => {
    const ids = [...new Set([...mutableInputs.map((o) => o.id), ...mergedGas.map((o) => o.id), ...working.keys()])]
    return ids.flatMap((id): Array<Draft> => {
      const before = input.objects.get(id)
      const after = deleted.has(id) ? undefined : (working.get(id) ?? (before === undefined ? undefined : { data: before.data, owner: before.owner }))
      if (before === undefined && after === undefined) return []
      return [{ id, before, after }]
    })
  }

  const priced = (drafts: ReadonlyArray<Draft>) => {
    const withCost = drafts.map((draft) => {
      if (draft.after === undefined) return { ...draft, cost: 0n }
      const object = { id: draft.id, version: lamport, owner: draft.after.owner, createdBy: draft.before?.createdBy ?? input.digest, previousTransaction: input.digest, storageRebate: 0n, data: draft.after.data }
      return { ...draft, cost: storageCost(object, originalId) }
    })
    const storage = withCost.reduce((sum, d) => sum + d.cost, 0n)
    const refundable = drafts.reduce((sum, d) => sum + (d.before?.storageRebate ?? 0n), 0n)
    const rebate = (refundable * REBATE_BASIS_POINTS) / 10_000n
    return { withCost, storage, rebate, nonRefundable: refundable - rebate }
  }

  let drafts = "Success" in status ? successChanges() : failureChanges()
  let cost = priced(drafts)
  let computationCost = computation
  // The budget must cover computation and storage; else Sui fails the transaction and keeps only the gas charge.
  if (computation + cost.storage > budget) {
    status = { Failure: { error: { InsufficientGas: true }, command: null } }
    drafts = failureChanges()
    cost = priced(drafts)
    computationCost = computation + cost.storage > budget ? (budget > cost.storage ? budget - cost.storage : 0n) : computation
  }
  const succeeded = "Success" in status
  const charged = computationCost + cost.storage - cost.rebate
  const gasLeft = succeeded ? gasCoinBalance(working.get(GAS)) + budget - charged : gasBalance - charged

  const changes: Array<ObjectChange> = cost.withCost.map((draft) => {
    if (draft.after === undefined) return { id: draft.id, before: draft.before, after: undefined }
    const data = draft.id === GAS && draft.after.data._tag === "Coin" ? { ...draft.after.data, balance: gasLeft } : draft.after.data
    const after = withVersion(
      { id: draft.id, owner: draft.after.owner, createdBy: draft.before?.createdBy ?? input.digest, previousTransaction: input.digest, storageRebate: draft.cost, data },
      lamport,
      originalId
    )
    return { id: draft.id, before: draft.before, after }
  })
  const unchangedShared = [...inputObjects.values()].filter((i) => !i.mutable).map((i) => i.object)

  return {
    status,
    changes,
    unchangedShared,
    gasObjectId: GAS,
    lamportVersion: lamport,
    gasUsed: { computationCost, storageCost: cost.storage, storageRebate: cost.rebate, nonRefundableStorageFee: cost.nonRefundable },
    events: succeeded ? events : []
  }
}

/** An object change before versions, digests and storage are settled. */
interface Draft {
  readonly id: string
  readonly before: LedgerObject | undefined
  readonly after: Working | undefined
}

const U64_MAX = 2n ** 64n - 1n
/** `join` is the seventh function declared in the framework's balance.move. */
const BALANCE_JOIN_INDEX = 6

const gasCoinBalance = (state: Working | undefined) => (state?.data._tag === "Coin" ? state.data.balance : 0n)
