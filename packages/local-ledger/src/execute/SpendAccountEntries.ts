import { normalizeStructTag, normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import {
  AbortCode,
  type AbortName,
  type EventName,
  Events,
  eventType,
  type FunctionName,
  Functions,
  grantType,
  GrantKind,
  isFunctionName,
  MODULE,
  PACKAGE_VERSION,
  poolIdOf,
  registryType,
  type SpendAccountPackage,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import { makeMemo } from "@gateway/chain/Memo"
import { addressLayout, byteVectorLayout, u64Layout, u64VectorLayout } from "@gateway/chain/PureArgument"
import { normalizeTypeArgument } from "@gateway/chain/TypeArgument"
import type { ExecutionFailure } from "../Execution.ts"
import { type GrantData, objectType, type PoolData } from "../LedgerObject.ts"
import {
  type Argument,
  argumentError,
  type CallMove,
  type CoinArgument,
  decode,
  Failed,
  type MoveRuntime,
  U64_MAX,
  type Value
} from "./ProgrammableTransaction.ts"

type MoveLocation = Extract<ExecutionFailure, { MoveAbort: unknown }>["MoveAbort"][0]

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
/** `join` is the seventh function declared in the framework's balance.move. */
const BALANCE_JOIN_INDEX = 6

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

/**
 * One call of an entry function: its typed arguments, each decoded on
 * demand (the functions below take them in parameter order, before any
 * check, as Sui's PTB runtime types them before the body runs), the
 * transaction it runs in, and how it aborts.
 */
interface Frame {
  readonly runtime: MoveRuntime
  readonly sender: string
  readonly originalId: string
  /** `T`, for the generic functions (their arity was checked on entry). */
  T(): string
  abort(name: AbortName, at?: keyof typeof FunctionIndex): never
  emit<T>(name: EventName, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T): void
  registryMut(i: number): { readonly id: string }
  poolMut(i: number): { readonly id: string; readonly pool: PoolData }
  grantMut(i: number): { readonly id: string; readonly grant: GrantData }
  coinOfT(i: number): CoinArgument
  clock(i: number): bigint
  u64(i: number): bigint
  address(i: number): string
  bytes(i: number): Uint8Array
  u64s(i: number): Array<bigint>
}

type Entry = (f: Frame) => ReadonlyArray<Value>

// === The entry functions, in spend_account.move's order ===

/** `typeNameOf` by coin type: a few coin types, each normalized and rewritten for every event that names one. */
const typeNames = makeMemo<string>()
const typeName = (coinType: string): string => typeNames(coinType, () => typeNameOf(coinType))

/** spend_account.move:195 */
const create_pool: Entry = (f) => {
  const registry = f.registryMut(0)
  const coin = f.coinOfT(1)
  // spend_account.move:198: `derived_object::claim` aborts when the (owner, T) pool was claimed before.
  const poolId = poolIdOf({ originalId: f.originalId, registryId: registry.id }, f.sender, f.T())
  if (f.runtime.current(poolId) !== undefined) {
    throw new Failed({ MoveAbort: [location(FRAMEWORK, "derived_object", "claim", 0), 0n] })
  }
  f.runtime.destroy(coin.id)
  const pool: PoolData = {
    _tag: "Pool",
    coinType: f.T(),
    version: PACKAGE_VERSION,
    owner: f.sender,
    balance: coin.coin.balance,
    noncesId: f.runtime.freshId(),
    nonces: []
  }
  f.runtime.createObject(poolId, pool, { _tag: "Shared", initialSharedVersion: f.runtime.lamport })
  f.emit("PoolCreated", Events.PoolCreated, { pool_id: poolId, owner: f.sender, coin_type: typeName(f.T()) })
  return []
}

/** spend_account.move:213 */
const deposit: Entry = (f) => {
  const { id, pool } = f.poolMut(0)
  const coin = f.coinOfT(1)
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:214
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:215
  const balance = pool.balance + coin.coin.balance
  // spend_account.move:217: `balance::join` adds in u64; past its maximum Move's arithmetic aborts.
  if (balance > U64_MAX) throw new Failed({ MovePrimitiveRuntimeError: location(FRAMEWORK, "balance", "join", BALANCE_JOIN_INDEX) })
  f.runtime.destroy(coin.id)
  f.runtime.write(id, { ...pool, balance })
  f.emit("Deposited", Events.Deposited, { pool_id: id, amount: coin.coin.balance })
  return []
}

/** spend_account.move:222 */
const withdraw: Entry = (f) => {
  const { id, pool } = f.poolMut(0)
  const amount = f.u64(1)
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:223
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:224
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:225
  f.runtime.write(id, { ...pool, balance: pool.balance - amount })
  f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: pool.owner })
  return []
}

/** spend_account.move:237 */
const create_policy_grant: Entry = (f) => {
  const { id, pool } = f.poolMut(0)
  const nonce = f.bytes(1)
  const deadlineMs = f.u64(2)
  const delegate = f.address(3)
  const sessionCap = f.u64(4)
  const maxPerPayment = f.u64(5)
  const expiryMs = f.u64(6)
  const policyIds = f.u64s(7)
  const now = f.clock(8)
  const nonceHex = toHex(nonce)
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:249
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:250
  if (now > deadlineMs) f.abort("EDeadlinePassed") // spend_account.move:251
  if (pool.nonces.includes(nonceHex)) f.abort("ENonceUsed") // spend_account.move:252
  if (maxPerPayment === 0n || maxPerPayment > sessionCap) f.abort("EInvalidCaps") // spend_account.move:254
  if (expiryMs !== 0n && expiryMs <= now) f.abort("EExpired") // spend_account.move:255
  // spend_account.move:253: the nonce is recorded before the two checks after it, which abort the whole transaction anyway.
  f.runtime.write(id, { ...pool, nonces: [...pool.nonces, nonceHex] })
  const grant: GrantData = {
    _tag: "Grant",
    version: PACKAGE_VERSION,
    poolId: id,
    owner: f.sender,
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
  const grantId = f.runtime.createObject(f.runtime.freshId(), grant, { _tag: "Shared", initialSharedVersion: f.runtime.lamport })
  f.emit("GrantCreated", Events.GrantCreated, {
    grant_id: grantId,
    nonce: Array.from(nonce),
    pool_id: id,
    owner: f.sender,
    delegate,
    coin_type: typeName(pool.coinType),
    session_cap: sessionCap,
    max_per_payment: maxPerPayment,
    expiry_ms: expiryMs,
    policy_ids: policyIds
  })
  return []
}

/** spend_account.move:289 */
const revoke_grant: Entry = (f) => {
  const { id, grant } = f.grantMut(0)
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:290
  if (grant.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:291
  if (grant.revoked) f.abort("EAlreadyRevoked") // spend_account.move:292
  f.runtime.write(id, { ...grant, revoked: true })
  f.emit("GrantRevoked", Events.GrantRevoked, { grant_id: id, pool_id: grant.poolId, owner: grant.owner })
  return []
}

/** spend_account.move:302 */
const pause_grant: Entry = (f) => set_paused(f, GrantKind.policy, true)
/** spend_account.move:307 */
const pause_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, true)
/** spend_account.move:312 */
const pause_open_grant: Entry = (f) => set_paused(f, GrantKind.open, true)
/** spend_account.move:317 */
const resume_grant: Entry = (f) => set_paused(f, GrantKind.policy, false)
/** spend_account.move:322 */
const resume_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, false)
/** spend_account.move:327 */
const resume_open_grant: Entry = (f) => set_paused(f, GrantKind.open, false)

/** spend_account.move:335 */
const pay: Entry = (f) => {
  const { id: grantId, grant } = f.grantMut(0)
  const { id: poolId, pool } = f.poolMut(1)
  const amount = f.u64(2)
  const recipient = f.address(3)
  const memo = f.bytes(4)
  const now = f.clock(5)
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:344
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:345
  if (grant.delegate !== f.sender) f.abort("ENotDelegate") // spend_account.move:346
  if (grant.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:347
  if (amount === 0n) f.abort("EZeroAmount") // spend_account.move:348
  if (grant.revoked) f.abort("ERevoked") // spend_account.move:349
  if (grant.paused) f.abort("EPaused") // spend_account.move:350
  if (grant.expiryMs !== 0n && now >= grant.expiryMs) f.abort("EExpired") // spend_account.move:351
  if (amount > grant.maxPerPayment) f.abort("EExceedsMaxPerPayment") // spend_account.move:352
  if (amount > grant.sessionCap - grant.spent) f.abort("EExceedsSessionCap") // spend_account.move:355
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:356
  const spent = grant.spent + amount
  f.runtime.write(poolId, { ...pool, balance: pool.balance - amount })
  f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: recipient })
  f.runtime.write(grantId, { ...grant, spent })
  f.emit("PaymentMade", Events.PaymentMade, {
    grant_id: grantId,
    pool_id: poolId,
    delegate: f.sender,
    recipient,
    amount,
    spent,
    memo: Array.from(memo)
  })
  return []
}

/** spend_account.move:376 */
const migrate_pool: Entry = (f) => {
  const { id, pool } = f.poolMut(0)
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:377
  if (pool.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:378
  f.runtime.write(id, { ...pool, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:383 */
const migrate_grant: Entry = (f) => {
  const { id, grant } = f.grantMut(0)
  if (grant.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:384
  if (grant.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:385
  f.runtime.write(id, { ...grant, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:393, private: shared by the pause and resume functions; its aborts are located in it. */
const set_paused = (f: Frame, kind: number, paused: boolean): ReadonlyArray<Value> => {
  const { id, grant } = f.grantMut(0)
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion", "set_paused") // spend_account.move:394
  if (grant.owner !== f.sender) f.abort("ENotOwner", "set_paused") // spend_account.move:395
  if (grant.kind !== kind) f.abort("EWrongKind", "set_paused") // spend_account.move:396
  if (grant.revoked) f.abort("ERevoked", "set_paused") // spend_account.move:397
  if (paused && grant.paused) f.abort("EAlreadyPaused", "set_paused") // spend_account.move:399
  if (!paused && !grant.paused) f.abort("ENotPaused", "set_paused") // spend_account.move:401
  f.runtime.write(id, { ...grant, paused })
  f.emit("GrantPauseSet", Events.GrantPauseSet, { grant_id: id, pool_id: grant.poolId, owner: grant.owner, paused })
  return []
}

const entries: { readonly [F in FunctionName]: Entry } = {
  create_pool,
  deposit,
  withdraw,
  create_policy_grant,
  revoke_grant,
  pause_grant,
  pause_spend_grant,
  pause_open_grant,
  resume_grant,
  resume_spend_grant,
  resume_open_grant,
  pay,
  migrate_pool,
  migrate_grant
}

/**
 * Calls into the published `spend_account` module: the function must exist
 * with its type and value arity, then its body runs with the module's
 * rules. `nowMs` is what the Clock reads.
 */
export const spendAccountCalls = (pkg: Pick<SpendAccountPackage, "originalId" | "publishedAt">, nowMs: bigint): CallMove => {
  const originalId = normalizeSuiAddress(pkg.originalId)
  const publishedAt = normalizeSuiAddress(pkg.publishedAt)
  const registryTypeTag = normalizeStructTag(registryType(originalId))
  const grantTypeTag = normalizeStructTag(grantType(originalId))
  const clockTypeTag = objectType({ _tag: "Clock" }, originalId)

  return (call, runtime) => {
    const fn = call.function
    if (call.module !== MODULE || !isFunctionName(fn)) throw new Failed({ FunctionNotFound: true })
    const spec = Functions[fn]
    if (call.typeArguments.length !== spec.typeParameters) throw new Failed({ TypeArityMismatch: true })
    if (call.arguments.length !== spec.parameters.length) throw new Failed({ ArityMismatch: true })
    const [rawTypeArg] = call.typeArguments
    const typeArg = rawTypeArg === undefined ? undefined : normalizeTypeArgument(rawTypeArg)
    const T = (): string => {
      if (typeArg === undefined) throw new Failed({ TypeArityMismatch: true })
      return typeArg
    }

    const arg = (i: number): Argument => {
      const a = call.arguments[i]
      if (a === undefined) throw new Failed({ ArityMismatch: true })
      return a
    }
    const expectType = (i: number, want: string) => {
      const object = runtime.objectAt(arg(i), i)
      if (objectType(object.data, originalId) !== want) throw argumentError(i, { TypeMismatch: true })
      return object
    }
    const mutableObject = (i: number, want: string) => {
      const object = expectType(i, want)
      if (!object.mutable) throw argumentError(i, { InvalidObjectByMutRef: true })
      return object
    }

    const frame: Frame = {
      runtime,
      sender: runtime.sender,
      originalId,
      T,
      abort: (name, at = fn) => {
        throw new Failed({ MoveAbort: [location(publishedAt, MODULE, at, FunctionIndex[at]), AbortCode[name]] })
      },
      emit: (name, layout, value) => runtime.emit(eventType(originalId, name), layout, value),
      registryMut: (i) => mutableObject(i, registryTypeTag),
      poolMut: (i) => {
        const object = mutableObject(i, normalizeStructTag(`${originalId}::${MODULE}::Pool<${T()}>`))
        if (object.data._tag !== "Pool") throw argumentError(i, { TypeMismatch: true })
        return { id: object.id, pool: object.data }
      },
      grantMut: (i) => {
        const object = mutableObject(i, grantTypeTag)
        if (object.data._tag !== "Grant") throw argumentError(i, { TypeMismatch: true })
        return { id: object.id, grant: object.data }
      },
      coinOfT: (i) => {
        const coin = runtime.coinByValue(arg(i), i)
        if (objectType(coin.coin, originalId) !== normalizeStructTag(`0x2::coin::Coin<${T()}>`)) throw argumentError(i, { TypeMismatch: true })
        return coin
      },
      clock: (i) => {
        expectType(i, clockTypeTag)
        return nowMs
      },
      u64: (i) => BigInt(decode(u64Layout, runtime.pureAt(arg(i), i), i)),
      address: (i) => normalizeSuiAddress(decode(addressLayout, runtime.pureAt(arg(i), i), i)),
      bytes: (i) => Uint8Array.from(decode(byteVectorLayout, runtime.pureAt(arg(i), i), i)),
      u64s: (i) => decode(u64VectorLayout, runtime.pureAt(arg(i), i), i).map(BigInt)
    }
    return entries[fn](frame)
  }
}
