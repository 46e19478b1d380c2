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
  MAX_CREATE_LIFETIME_MS,
  MAX_RECIPIENTS,
  MODULE,
  PACKAGE_VERSION,
  poolIdOf,
  adminCapType,
  registryType,
  type SpendAccountPackage,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import {
  type GrantWindow,
  monthStartMs,
  NO_WINDOW,
  spendInWindow,
  validWindowArguments,
  WindowKind,
  windowRemaining
} from "@gateway/domain/chain/GrantWindow"
import { makeMemo } from "@gateway/chain/Memo"
import { addressLayout, addressVectorLayout, byteVectorLayout, u64Layout, u64VectorLayout, u8Layout } from "@gateway/chain/PureArgument"
import { normalizeTypeArgument } from "@gateway/chain/TypeArgument"
import type { ExecutionFailure } from "../Execution.ts"
import { derivedObjectAlreadyExists } from "./FrameworkAborts.ts"
import { type GrantData, objectType, type PoolData, type RegistryData } from "../LedgerObject.ts"
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
 * (`init` first, the private ones last; test-only ones are not published).
 */
export const FunctionIndex = {
  init: 0,
  create_pool: 1,
  deposit: 2,
  withdraw: 3,
  forget_nonce: 4,
  create_policy_grant: 5,
  revoke_grant: 6,
  pause_grant: 7,
  pause_spend_grant: 8,
  pause_open_grant: 9,
  resume_grant: 10,
  resume_spend_grant: 11,
  resume_open_grant: 12,
  pay: 13,
  set_version: 14,
  migrate_pool: 15,
  migrate_grant: 16,
  set_paused: 17
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
  /** The Registry by immutable reference: its package version. */
  registry(i: number): bigint
  registryMut(i: number): { readonly id: string; readonly registry: RegistryData }
  adminCap(i: number): void
  poolMut(i: number): { readonly id: string; readonly pool: PoolData }
  grantMut(i: number): { readonly id: string; readonly grant: GrantData }
  coinOfT(i: number): CoinArgument
  clock(i: number): bigint
  u8(i: number): number
  u64(i: number): bigint
  address(i: number): string
  addresses(i: number): Array<string>
  bytes(i: number): Uint8Array
  u64s(i: number): Array<bigint>
}

type Entry = (f: Frame) => ReadonlyArray<Value>

// === The entry functions, in spend_account.move's order ===

/** `typeNameOf` by coin type: a few coin types, each normalized and rewritten for every event that names one. */
const typeNames = makeMemo<string>()
const typeName = (coinType: string): string => typeNames(coinType, () => typeNameOf(coinType))

const windowEvent = (w: GrantWindow) => ({ kind: w.kind, period_ms: w.periodMs, limit: w.limit, start_ms: w.startMs, spent: w.spent })

/** spend_account.move:273 */
const create_pool: Entry = (f) => {
  const { id: registryId, registry } = f.registryMut(0)
  const coin = f.coinOfT(1)
  if (registry.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:274
  // spend_account.move:277: `derived_object::claim` aborts when the (owner, T) pool was claimed before.
  const poolId = poolIdOf({ originalId: f.originalId, registryId }, f.sender, f.T())
  if (f.runtime.current(poolId) !== undefined) throw derivedObjectAlreadyExists()
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

/** spend_account.move:292 */
const deposit: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const coin = f.coinOfT(2)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:293
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:294
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:295
  const balance = pool.balance + coin.coin.balance
  // spend_account.move:297: `balance::join` adds in u64; past its maximum Move's arithmetic aborts.
  if (balance > U64_MAX) throw new Failed({ MovePrimitiveRuntimeError: location(FRAMEWORK, "balance", "join", BALANCE_JOIN_INDEX) })
  f.runtime.destroy(coin.id)
  f.runtime.write(id, { ...pool, balance })
  f.emit("Deposited", Events.Deposited, { pool_id: id, amount: coin.coin.balance })
  return []
}

/** spend_account.move:303: the coin is the call's result, for the rest of the transaction. */
const withdraw: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const amount = f.u64(2)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:304
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:305
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:306
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:307
  f.runtime.write(id, { ...pool, balance: pool.balance - amount })
  const coinId = f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: f.sender })
  // A `Coin<T>` has no `drop`: left unused by the rest of the transaction, it fails it (UnusedValueWithoutDrop).
  f.runtime.mustUse(coinId)
  return [{ _tag: "Object", id: coinId, mutable: true }]
}

/** spend_account.move:313 */
const forget_nonce: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const nonceHex = toHex(f.bytes(2))
  const now = f.clock(3)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:314
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:315
  const held = pool.nonces.find((n) => n.nonce === nonceHex)
  if (held === undefined) return f.abort("ENonceUnknown") // spend_account.move:316
  if (now <= held.deadlineMs) f.abort("ENonceLive") // spend_account.move:317
  f.runtime.write(id, { ...pool, nonces: pool.nonces.filter((n) => n.nonce !== nonceHex) })
  return []
}

/** spend_account.move:330 */
const create_policy_grant: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const nonce = f.bytes(2)
  const deadlineMs = f.u64(3)
  const delegate = f.address(4)
  const sessionCap = f.u64(5)
  const maxPerPayment = f.u64(6)
  const expiryMs = f.u64(7)
  const windowKind = f.u8(8)
  const windowPeriodMs = f.u64(9)
  const windowLimit = f.u64(10)
  const recipients = f.addresses(11)
  const policyIds = f.u64s(12)
  const now = f.clock(13)
  const nonceHex = toHex(nonce)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:347
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:348
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:349
  if (now > deadlineMs) f.abort("EDeadlinePassed") // spend_account.move:351
  if (deadlineMs - now > MAX_CREATE_LIFETIME_MS) f.abort("EDeadlineTooFar") // spend_account.move:352
  if (pool.nonces.some((n) => n.nonce === nonceHex)) f.abort("ENonceUsed") // spend_account.move:353
  if (maxPerPayment === 0n || maxPerPayment > sessionCap) f.abort("EInvalidCaps") // spend_account.move:355
  if (expiryMs !== 0n && expiryMs <= now) f.abort("EExpired") // spend_account.move:356
  if (!validWindowArguments(windowKind, windowPeriodMs, windowLimit)) f.abort("EInvalidWindow") // spend_account.move:357
  if (recipients.length > MAX_RECIPIENTS) f.abort("ETooManyRecipients") // spend_account.move:358
  // spend_account.move:354: the nonce is recorded before the checks after it, which abort the whole transaction anyway.
  f.runtime.write(id, { ...pool, nonces: [...pool.nonces, { nonce: nonceHex, deadlineMs }] })
  const window: GrantWindow = windowKind === WindowKind.none
    ? NO_WINDOW
    : {
      kind: windowKind as WindowKind,
      periodMs: windowPeriodMs,
      limit: windowLimit,
      startMs: windowKind === WindowKind.calendarMonth ? monthStartMs(now) : now,
      spent: 0n
    }
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
    window,
    recipients,
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
    window: windowEvent(window),
    recipients,
    policy_ids: policyIds
  })
  return []
}

/** spend_account.move:405 */
const revoke_grant: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:406
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:407
  if (grant.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:408
  if (grant.revoked) f.abort("EAlreadyRevoked") // spend_account.move:409
  f.runtime.write(id, { ...grant, revoked: true })
  f.emit("GrantRevoked", Events.GrantRevoked, { grant_id: id, pool_id: grant.poolId, owner: grant.owner })
  return []
}

/** spend_account.move:419 */
const pause_grant: Entry = (f) => set_paused(f, GrantKind.policy, true)
/** spend_account.move:424 */
const pause_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, true)
/** spend_account.move:429 */
const pause_open_grant: Entry = (f) => set_paused(f, GrantKind.open, true)
/** spend_account.move:434 */
const resume_grant: Entry = (f) => set_paused(f, GrantKind.policy, false)
/** spend_account.move:439 */
const resume_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, false)
/** spend_account.move:444 */
const resume_open_grant: Entry = (f) => set_paused(f, GrantKind.open, false)

/** spend_account.move:452 */
const pay: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: grantId, grant } = f.grantMut(1)
  const { id: poolId, pool } = f.poolMut(2)
  const amount = f.u64(3)
  const recipient = f.address(4)
  const memo = f.bytes(5)
  const now = f.clock(6)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:462
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:463
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:464
  if (grant.delegate !== f.sender) f.abort("ENotDelegate") // spend_account.move:465
  if (grant.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:466
  if (amount === 0n) f.abort("EZeroAmount") // spend_account.move:467
  if (grant.revoked) f.abort("ERevoked") // spend_account.move:468
  if (grant.paused) f.abort("EPaused") // spend_account.move:469
  if (grant.expiryMs !== 0n && now >= grant.expiryMs) f.abort("EExpired") // spend_account.move:471
  if (grant.recipients.length > 0 && !grant.recipients.includes(recipient)) f.abort("ERecipientNotAllowed") // spend_account.move:472
  if (amount > grant.maxPerPayment) f.abort("EExceedsMaxPerPayment") // spend_account.move:473
  if (amount > grant.sessionCap - grant.spent) f.abort("EExceedsSessionCap") // spend_account.move:476
  // spend_account.move:477-481: the window rolls to the one holding now, then must have room for the amount.
  const remaining = windowRemaining(grant.window, now)
  if (remaining !== undefined && amount > remaining) f.abort("EExceedsWindowLimit") // spend_account.move:480
  const window = spendInWindow(grant.window, now, amount)
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:483
  const spent = grant.spent + amount
  f.runtime.write(poolId, { ...pool, balance: pool.balance - amount })
  f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: recipient })
  f.runtime.write(grantId, { ...grant, spent, window })
  f.emit("PaymentMade", Events.PaymentMade, {
    grant_id: grantId,
    pool_id: poolId,
    delegate: f.sender,
    recipient,
    amount,
    spent,
    window_spent: window.spent,
    memo: Array.from(memo)
  })
  return []
}

/** spend_account.move:505 */
const set_version: Entry = (f) => {
  f.adminCap(0)
  const { id, registry } = f.registryMut(1)
  if (registry.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:506
  f.runtime.write(id, { ...registry, version: PACKAGE_VERSION })
  f.emit("VersionSet", Events.VersionSet, { version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:513 */
const migrate_pool: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:514
  if (pool.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:515
  f.runtime.write(id, { ...pool, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:521 */
const migrate_grant: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:522
  if (grant.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:523
  f.runtime.write(id, { ...grant, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:532, private: shared by the pause and resume functions; its aborts are located in it. */
const set_paused = (f: Frame, kind: number, paused: boolean): ReadonlyArray<Value> => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion", "set_paused") // spend_account.move:533
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion", "set_paused") // spend_account.move:534
  if (grant.owner !== f.sender) f.abort("ENotOwner", "set_paused") // spend_account.move:535
  if (grant.kind !== kind) f.abort("EWrongKind", "set_paused") // spend_account.move:536
  if (grant.revoked) f.abort("ERevoked", "set_paused") // spend_account.move:537
  if (paused && grant.paused) f.abort("EAlreadyPaused", "set_paused") // spend_account.move:539
  if (!paused && !grant.paused) f.abort("ENotPaused", "set_paused") // spend_account.move:541
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
  forget_nonce,
  set_version,
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
  const adminCapTypeTag = normalizeStructTag(adminCapType(originalId))
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
      registry: (i) => {
        const object = expectType(i, registryTypeTag)
        if (object.data._tag !== "Registry") throw argumentError(i, { TypeMismatch: true })
        return object.data.version
      },
      registryMut: (i) => {
        const object = mutableObject(i, registryTypeTag)
        if (object.data._tag !== "Registry") throw argumentError(i, { TypeMismatch: true })
        return { id: object.id, registry: object.data }
      },
      adminCap: (i) => {
        expectType(i, adminCapTypeTag)
      },
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
      u8: (i) => decode(u8Layout, runtime.pureAt(arg(i), i), i),
      u64: (i) => BigInt(decode(u64Layout, runtime.pureAt(arg(i), i), i)),
      address: (i) => normalizeSuiAddress(decode(addressLayout, runtime.pureAt(arg(i), i), i)),
      addresses: (i) => decode(addressVectorLayout, runtime.pureAt(arg(i), i), i).map((a) => normalizeSuiAddress(a)),
      bytes: (i) => Uint8Array.from(decode(byteVectorLayout, runtime.pureAt(arg(i), i), i)),
      u64s: (i) => decode(u64VectorLayout, runtime.pureAt(arg(i), i), i).map(BigInt)
    }
    return entries[fn](frame)
  }
}
