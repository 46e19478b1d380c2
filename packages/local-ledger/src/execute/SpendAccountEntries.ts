import { fromHex, normalizeStructTag, normalizeSuiAddress, toHex } from "@mysten/sui/utils"
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
  sessionType,
  type SpendAccountPackage,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import { SESSION_GRACE_MS, SESSION_MAX_LIFETIME_MS, voucherMessage } from "@gateway/domain/chain/SessionVoucher"
import {
  type GrantWindow,
  monthStartMs,
  NO_WINDOW,
  spendInWindow,
  validWindowArguments,
  windowEndMs,
  WindowKind,
  windowRemaining
} from "@gateway/domain/chain/GrantWindow"
import { makeMemo } from "@gateway/chain/Memo"
import { addressLayout, addressVectorLayout, byteVectorLayout, u64Layout, u64VectorLayout, u8Layout } from "@gateway/chain/PureArgument"
import { normalizeTypeArgument } from "@gateway/chain/TypeArgument"
import type { ExecutionFailure } from "../Execution.ts"
import { derivedObjectAlreadyExists } from "./FrameworkAborts.ts"
import { ed25519Verify } from "./Ed25519.ts"
import { type GrantData, objectType, type PoolData, type RegistryData, type SessionData } from "../LedgerObject.ts"
import {
  type Argument,
  argumentError,
  type CallMove,
  type CoinArgument,
  decode,
  Failed,
  type MoveCall,
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
  open_session: 14,
  top_up: 15,
  claim: 16,
  close_session: 17,
  claim_and_close: 18,
  request_close: 19,
  set_version: 20,
  migrate_pool: 21,
  migrate_grant: 22,
  migrate_session: 23,
  set_paused: 24
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
  /** The Grant by immutable reference (`request_close`). */
  grant(i: number): { readonly id: string; readonly grant: GrantData }
  sessionMut(i: number): { readonly id: string; readonly session: SessionData }
  /** A session taken by value: a shared object may be, when the input takes it mutably; the call deletes it. */
  sessionByValue(i: number): { readonly id: string; readonly session: SessionData }
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

/** spend_account.move:411 */
const create_pool: Entry = (f) => {
  const { id: registryId, registry } = f.registryMut(0)
  const coin = f.coinOfT(1)
  if (registry.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:412
  // spend_account.move:415: `derived_object::claim` aborts when the (owner, T) pool was claimed before.
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

/** spend_account.move:430 */
const deposit: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const coin = f.coinOfT(2)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:431
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:432
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:433
  const balance = pool.balance + coin.coin.balance
  // spend_account.move:435: `balance::join` adds in u64; past its maximum Move's arithmetic aborts.
  if (balance > U64_MAX) throw new Failed({ MovePrimitiveRuntimeError: location(FRAMEWORK, "balance", "join", BALANCE_JOIN_INDEX) })
  f.runtime.destroy(coin.id)
  f.runtime.write(id, { ...pool, balance })
  f.emit("Deposited", Events.Deposited, { pool_id: id, amount: coin.coin.balance })
  return []
}

/** spend_account.move:441: the coin is the call's result, for the rest of the transaction. */
const withdraw: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const amount = f.u64(2)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:442
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:443
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:444
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:445
  f.runtime.write(id, { ...pool, balance: pool.balance - amount })
  const coinId = f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: pool.coinType, balance: amount }, { _tag: "Address", address: f.sender })
  // A `Coin<T>` has no `drop`: left unused by the rest of the transaction, it fails it (UnusedValueWithoutDrop).
  f.runtime.mustUse(coinId)
  return [{ _tag: "Object", id: coinId, mutable: true }]
}

/** spend_account.move:451 */
const forget_nonce: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  const nonceHex = toHex(f.bytes(2))
  const now = f.clock(3)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:452
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:453
  const held = pool.nonces.find((n) => n.nonce === nonceHex)
  if (held === undefined) return f.abort("ENonceUnknown") // spend_account.move:454
  if (now <= held.deadlineMs) f.abort("ENonceLive") // spend_account.move:455
  f.runtime.write(id, { ...pool, nonces: pool.nonces.filter((n) => n.nonce !== nonceHex) })
  return []
}

/** spend_account.move:468 */
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
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:485
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:486
  if (pool.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:487
  if (now > deadlineMs) f.abort("EDeadlinePassed") // spend_account.move:489
  if (deadlineMs - now > MAX_CREATE_LIFETIME_MS) f.abort("EDeadlineTooFar") // spend_account.move:490
  if (pool.nonces.some((n) => n.nonce === nonceHex)) f.abort("ENonceUsed") // spend_account.move:491
  if (maxPerPayment === 0n || maxPerPayment > sessionCap) f.abort("EInvalidCaps") // spend_account.move:493
  if (expiryMs !== 0n && expiryMs <= now) f.abort("EExpired") // spend_account.move:494
  if (!validWindowArguments(windowKind, windowPeriodMs, windowLimit)) f.abort("EInvalidWindow") // spend_account.move:495
  if (recipients.length > MAX_RECIPIENTS) f.abort("ETooManyRecipients") // spend_account.move:496
  // spend_account.move:492: the nonce is recorded before the checks after it, which abort the whole transaction anyway.
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

/** spend_account.move:543 */
const revoke_grant: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:544
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:545
  if (grant.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:546
  if (grant.revoked) f.abort("EAlreadyRevoked") // spend_account.move:547
  f.runtime.write(id, { ...grant, revoked: true })
  f.emit("GrantRevoked", Events.GrantRevoked, { grant_id: id, pool_id: grant.poolId, owner: grant.owner })
  return []
}

/** spend_account.move:557 */
const pause_grant: Entry = (f) => set_paused(f, GrantKind.policy, true)
/** spend_account.move:562 */
const pause_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, true)
/** spend_account.move:567 */
const pause_open_grant: Entry = (f) => set_paused(f, GrantKind.open, true)
/** spend_account.move:572 */
const resume_grant: Entry = (f) => set_paused(f, GrantKind.policy, false)
/** spend_account.move:577 */
const resume_spend_grant: Entry = (f) => set_paused(f, GrantKind.spend, false)
/** spend_account.move:582 */
const resume_open_grant: Entry = (f) => set_paused(f, GrantKind.open, false)

/** spend_account.move:590 */
const pay: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: grantId, grant } = f.grantMut(1)
  const { id: poolId, pool } = f.poolMut(2)
  const amount = f.u64(3)
  const recipient = f.address(4)
  const memo = f.bytes(5)
  const now = f.clock(6)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:600
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:601
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:602
  if (grant.delegate !== f.sender) f.abort("ENotDelegate") // spend_account.move:603
  if (grant.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:604
  if (amount === 0n) f.abort("EZeroAmount") // spend_account.move:605
  if (grant.revoked) f.abort("ERevoked") // spend_account.move:606
  if (grant.paused) f.abort("EPaused") // spend_account.move:607
  if (grant.expiryMs !== 0n && now >= grant.expiryMs) f.abort("EExpired") // spend_account.move:609
  if (grant.recipients.length > 0 && !grant.recipients.includes(recipient)) f.abort("ERecipientNotAllowed") // spend_account.move:610
  if (amount > grant.maxPerPayment) f.abort("EExceedsMaxPerPayment") // spend_account.move:611
  if (amount > grant.sessionCap - grant.spent) f.abort("EExceedsSessionCap") // spend_account.move:614
  // spend_account.move:615-619: the window rolls to the one holding now, then must have room for the amount.
  const remaining = windowRemaining(grant.window, now)
  if (remaining !== undefined && amount > remaining) f.abort("EExceedsWindowLimit") // spend_account.move:618
  const window = spendInWindow(grant.window, now, amount)
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:621
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

// === Sessions ===

/** The key vouchers are verified with: an Ed25519 public key (spend_account.move `ED25519_KEY_LENGTH`). */
const ED25519_KEY_LENGTH = 32

/** spend_account.move `valid_session_expiry`: in the future, at most a week away, not past the grant's expiry. */
const validSessionExpiry = (expiryMs: bigint, now: bigint, grantExpiryMs: bigint) =>
  expiryMs > now && expiryMs - now <= SESSION_MAX_LIFETIME_MS && (grantExpiryMs === 0n || expiryMs <= grantExpiryMs)

/** spend_account.move `claim_deadline_ms`: a grace after expiry, or the earlier deadline `request_close` set. */
const claimDeadlineMs = (session: SessionData) => {
  const deadline = session.expiryMs + SESSION_GRACE_MS
  return session.closeAtMs !== 0n && session.closeAtMs < deadline ? session.closeAtMs : deadline
}

/** spend_account.move `ed25519::ed25519_verify` over `voucher_message`. */
const voucherVerifies = (session: { readonly id: string; readonly session: SessionData }, cumulative: bigint, signature: Uint8Array, final: boolean) =>
  ed25519Verify(signature, fromHex(session.session.voucherKey), voucherMessage(session.id, cumulative, final))

/** spend_account.move:650 */
const open_session: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: grantId, grant } = f.grantMut(1)
  const { id: poolId, pool } = f.poolMut(2)
  const payee = f.address(3)
  const operator = f.address(4)
  const deposit = f.u64(5)
  const expiryMs = f.u64(6)
  const voucherKey = f.bytes(7)
  const now = f.clock(8)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:662
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:663
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:664
  if (grant.delegate !== f.sender) f.abort("ENotDelegate") // spend_account.move:665
  if (grant.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:666
  if (deposit === 0n) f.abort("EZeroAmount") // spend_account.move:667
  if (grant.revoked) f.abort("ERevoked") // spend_account.move:668
  if (grant.paused) f.abort("EPaused") // spend_account.move:669
  if (grant.expiryMs !== 0n && now >= grant.expiryMs) f.abort("EExpired") // spend_account.move:671
  if (grant.recipients.length > 0 && !grant.recipients.includes(payee)) f.abort("ERecipientNotAllowed") // spend_account.move:672
  if (voucherKey.length !== ED25519_KEY_LENGTH) f.abort("EInvalidVoucherKey") // spend_account.move:673
  if (!validSessionExpiry(expiryMs, now, grant.expiryMs)) f.abort("EInvalidSessionExpiry") // spend_account.move:674
  if (deposit > grant.sessionCap - grant.spent) f.abort("EExceedsSessionCap") // spend_account.move:675
  const remaining = windowRemaining(grant.window, now)
  if (remaining !== undefined && deposit > remaining) f.abort("EExceedsWindowLimit") // spend_account.move:678
  const window = spendInWindow(grant.window, now, deposit)
  if (pool.balance < deposit) f.abort("EInsufficientBalance") // spend_account.move:681
  const spent = grant.spent + deposit
  const windowed = window.kind !== WindowKind.none
  f.runtime.write(poolId, { ...pool, balance: pool.balance - deposit })
  f.runtime.write(grantId, { ...grant, spent, window })
  const session: SessionData = {
    _tag: "Session",
    coinType: pool.coinType,
    version: PACKAGE_VERSION,
    grantId,
    poolId,
    owner: grant.owner,
    delegate: grant.delegate,
    payee,
    operator,
    voucherKey: toHex(voucherKey),
    balance: deposit,
    deposit,
    claimed: 0n,
    expiryMs,
    closeAtMs: 0n,
    windowStartMs: windowed ? window.startMs : 0n,
    windowCharged: windowed ? deposit : 0n
  }
  const sessionId = f.runtime.createObject(f.runtime.freshId(), session, { _tag: "Shared", initialSharedVersion: f.runtime.lamport })
  f.emit("SessionOpened", Events.SessionOpened, {
    session_id: sessionId,
    grant_id: grantId,
    pool_id: poolId,
    delegate: grant.delegate,
    payee,
    operator,
    coin_type: typeName(pool.coinType),
    voucher_key: Array.from(voucherKey),
    deposit,
    expiry_ms: expiryMs,
    spent,
    window_spent: window.spent
  })
  return []
}

/** The session's window charge after `amount` more in `window` (already rolled and spent): spend_account.move `top_up`. */
const chargeWindow = (session: SessionData, window: GrantWindow, amount: bigint): Pick<SessionData, "windowStartMs" | "windowCharged"> => {
  if (window.kind === WindowKind.none) return session
  return window.startMs === session.windowStartMs
    ? { windowStartMs: session.windowStartMs, windowCharged: session.windowCharged + amount }
    : { windowStartMs: window.startMs, windowCharged: amount }
}

/** spend_account.move:725 */
const top_up: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: grantId, grant } = f.grantMut(1)
  const { id: poolId, pool } = f.poolMut(2)
  const { id: sessionId, session } = f.sessionMut(3)
  const amount = f.u64(4)
  const now = f.clock(5)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:734
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:735
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:736
  if (session.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:737
  if (grant.delegate !== f.sender) f.abort("ENotDelegate") // spend_account.move:738
  if (grant.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:739
  if (session.grantId !== grantId) f.abort("EWrongGrant") // spend_account.move:740
  if (amount === 0n) f.abort("EZeroAmount") // spend_account.move:741
  if (grant.revoked) f.abort("ERevoked") // spend_account.move:742
  if (grant.paused) f.abort("EPaused") // spend_account.move:743
  if (grant.expiryMs !== 0n && now >= grant.expiryMs) f.abort("EExpired") // spend_account.move:745
  if (now >= session.expiryMs || session.closeAtMs !== 0n) f.abort("ESessionEnded") // spend_account.move:746
  if (amount > grant.sessionCap - grant.spent) f.abort("EExceedsSessionCap") // spend_account.move:747
  const remaining = windowRemaining(grant.window, now)
  if (remaining !== undefined && amount > remaining) f.abort("EExceedsWindowLimit") // spend_account.move:750
  const window = spendInWindow(grant.window, now, amount)
  if (pool.balance < amount) f.abort("EInsufficientBalance") // spend_account.move:760
  const spent = grant.spent + amount
  const deposit = session.deposit + amount
  f.runtime.write(poolId, { ...pool, balance: pool.balance - amount })
  f.runtime.write(grantId, { ...grant, spent, window })
  f.runtime.write(sessionId, { ...session, ...chargeWindow(session, window, amount), balance: session.balance + amount, deposit })
  f.emit("SessionToppedUp", Events.SessionToppedUp, { session_id: sessionId, grant_id: grantId, amount, deposit, spent, window_spent: window.spent })
  return []
}

/** spend_account.move `pay_claim`: pays what `cumulative` adds to what was claimed; nothing (and no event) when it adds nothing. */
const payClaim = (f: Frame, sessionId: string, session: SessionData, cumulative: bigint): SessionData => {
  if (cumulative <= session.claimed) return session
  const amount = cumulative - session.claimed
  f.runtime.createObject(f.runtime.freshId(), { _tag: "Coin", coinType: session.coinType, balance: amount }, { _tag: "Address", address: session.payee })
  const after = { ...session, balance: session.balance - amount, claimed: cumulative }
  f.emit("SessionClaimed", Events.SessionClaimed, { session_id: sessionId, payee: session.payee, amount, claimed: cumulative })
  return after
}

/** spend_account.move:782 */
const claim: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: sessionId, session } = f.sessionMut(1)
  const cumulative = f.u64(2)
  const signature = f.bytes(3)
  const now = f.clock(4)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:790
  if (session.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:791
  if (now > claimDeadlineMs(session)) f.abort("EClaimsOver") // spend_account.move:792
  if (cumulative > session.deposit) f.abort("EExceedsDeposit") // spend_account.move:793
  if (!voucherVerifies({ id: sessionId, session }, cumulative, signature, false)) f.abort("EBadVoucherSignature") // spend_account.move:795
  const after = payClaim(f, sessionId, session, cumulative)
  if (after !== session) f.runtime.write(sessionId, after)
  return []
}

/** A session being closed, with the grant and pool its rest goes back to. */
interface Closing {
  readonly sessionId: string
  readonly session: SessionData
  readonly grantId: string
  readonly grant: GrantData
  readonly poolId: string
  readonly pool: PoolData
}

/**
 * spend_account.move `finish_close`: the rest back to the pool and off the grant's spending (and off the window the
 * deposits were charged in, while it is still the current one: the window is not rolled), the session deleted.
 */
const finishClose = (f: Frame, closing: Closing, now: bigint) => {
  const { sessionId, session, grant, pool } = closing
  const returned = session.balance
  const refundsWindow = grant.window.kind !== WindowKind.none && grant.window.startMs === session.windowStartMs && now < windowEndMs(grant.window)
  const refund = refundsWindow ? [returned, session.windowCharged, grant.window.spent].reduce((a, b) => (a < b ? a : b)) : 0n
  const window = { ...grant.window, spent: grant.window.spent - refund }
  const spent = grant.spent - returned
  f.runtime.write(closing.poolId, { ...pool, balance: pool.balance + returned })
  f.runtime.write(closing.grantId, { ...grant, spent, window })
  f.runtime.destroy(sessionId)
  f.emit("SessionClosed", Events.SessionClosed, {
    session_id: sessionId,
    grant_id: closing.grantId,
    payee: session.payee,
    claimed: session.claimed,
    returned,
    spent,
    window_spent: window.spent
  })
}

/** spend_account.move:806 */
const close_session: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: sessionId, session } = f.sessionByValue(1)
  const { id: grantId, grant } = f.grantMut(2)
  const { id: poolId, pool } = f.poolMut(3)
  const now = f.clock(4)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:814
  if (session.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:815
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:816
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:817
  if (session.grantId !== grantId) f.abort("EWrongGrant") // spend_account.move:818
  if (session.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:819
  if (f.sender !== session.payee && now <= claimDeadlineMs(session)) f.abort("ESessionLive") // spend_account.move:821
  finishClose(f, { sessionId, session, grantId, grant, poolId, pool }, now)
  return []
}

/** spend_account.move:830 */
const claim_and_close: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: sessionId, session } = f.sessionByValue(1)
  const { id: grantId, grant } = f.grantMut(2)
  const { id: poolId, pool } = f.poolMut(3)
  const cumulative = f.u64(4)
  const signature = f.bytes(5)
  const now = f.clock(6)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:840
  if (session.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:841
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:842
  if (pool.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:843
  if (session.grantId !== grantId) f.abort("EWrongGrant") // spend_account.move:844
  if (session.poolId !== poolId) f.abort("EWrongPool") // spend_account.move:845
  if (f.sender !== session.payee && f.sender !== session.operator) f.abort("ENotCloser") // spend_account.move:846
  if (now > claimDeadlineMs(session)) f.abort("EClaimsOver") // spend_account.move:848
  if (cumulative > session.deposit) f.abort("EExceedsDeposit") // spend_account.move:849
  if (!voucherVerifies({ id: sessionId, session }, cumulative, signature, true)) f.abort("EBadVoucherSignature") // spend_account.move:851
  const claimed = payClaim(f, sessionId, session, cumulative)
  finishClose(f, { sessionId, session: claimed, grantId, grant, poolId, pool }, now)
  return []
}

/** spend_account.move:862 */
const request_close: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id: sessionId, session } = f.sessionMut(1)
  const { id: grantId, grant } = f.grant(2)
  const now = f.clock(3)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:869
  if (session.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:870
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:871
  if (session.grantId !== grantId) f.abort("EWrongGrant") // spend_account.move:872
  if (grant.owner !== f.sender) f.abort("ENotOwner") // spend_account.move:873
  if (!grant.paused && !grant.revoked) f.abort("EGrantActive") // spend_account.move:874
  const requested = now + SESSION_GRACE_MS
  const closeAtMs = session.closeAtMs === 0n || requested < session.closeAtMs ? requested : session.closeAtMs
  f.runtime.write(sessionId, { ...session, closeAtMs })
  f.emit("SessionCloseRequested", Events.SessionCloseRequested, { session_id: sessionId, grant_id: grantId, close_at_ms: closeAtMs })
  return []
}

/** spend_account.move:888 */
const set_version: Entry = (f) => {
  f.adminCap(0)
  const { id, registry } = f.registryMut(1)
  if (registry.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:889
  f.runtime.write(id, { ...registry, version: PACKAGE_VERSION })
  f.emit("VersionSet", Events.VersionSet, { version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:896 */
const migrate_pool: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, pool } = f.poolMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:897
  if (pool.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:898
  f.runtime.write(id, { ...pool, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:904 */
const migrate_grant: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:905
  if (grant.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:906
  f.runtime.write(id, { ...grant, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:912 */
const migrate_session: Entry = (f) => {
  const registryVersion = f.registry(0)
  const { id, session } = f.sessionMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion") // spend_account.move:913
  if (session.version >= PACKAGE_VERSION) f.abort("ENotUpgrade") // spend_account.move:914
  f.runtime.write(id, { ...session, version: PACKAGE_VERSION })
  return []
}

/** spend_account.move:923, private: shared by the pause and resume functions; its aborts are located in it. */
const set_paused = (f: Frame, kind: number, paused: boolean): ReadonlyArray<Value> => {
  const registryVersion = f.registry(0)
  const { id, grant } = f.grantMut(1)
  if (registryVersion !== PACKAGE_VERSION) f.abort("EWrongVersion", "set_paused") // spend_account.move:924
  if (grant.version !== PACKAGE_VERSION) f.abort("EWrongVersion", "set_paused") // spend_account.move:925
  if (grant.owner !== f.sender) f.abort("ENotOwner", "set_paused") // spend_account.move:926
  if (grant.kind !== kind) f.abort("EWrongKind", "set_paused") // spend_account.move:927
  if (grant.revoked) f.abort("ERevoked", "set_paused") // spend_account.move:928
  if (paused && grant.paused) f.abort("EAlreadyPaused", "set_paused") // spend_account.move:930
  if (!paused && !grant.paused) f.abort("ENotPaused", "set_paused") // spend_account.move:932
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
  open_session,
  top_up,
  claim,
  close_session,
  claim_and_close,
  request_close,
  forget_nonce,
  set_version,
  migrate_pool,
  migrate_grant,
  migrate_session
}

/** The type tags of `spend_account`'s objects under one package, which entry arguments are checked against. */
interface ModuleTypes {
  readonly originalId: string
  readonly registry: string
  readonly adminCap: string
  readonly grant: string
  readonly clock: string
}

/** A call's arguments by index, and object arguments checked against the type their parameter takes. */
const callArguments = (call: MoveCall, runtime: MoveRuntime, originalId: string) => {
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
  return { arg, expectType, mutableObject }
}

type CallArguments = ReturnType<typeof callArguments>

type ObjectParameters = Pick<Frame, "registry" | "registryMut" | "adminCap" | "poolMut" | "grantMut" | "grant" | "sessionMut" | "sessionByValue" | "coinOfT" | "clock">

/** The frame's object parameters: each the module's object it must be, taken as the parameter takes it. */
const objectParameters = (types: ModuleTypes, args: CallArguments, runtime: MoveRuntime, T: () => string, nowMs: bigint): ObjectParameters => {
  const { originalId } = types
  const { arg, expectType, mutableObject } = args
  return {
    registry: (i) => {
      const object = expectType(i, types.registry)
      if (object.data._tag !== "Registry") throw argumentError(i, { TypeMismatch: true })
      return object.data.version
    },
    registryMut: (i) => {
      const object = mutableObject(i, types.registry)
      if (object.data._tag !== "Registry") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, registry: object.data }
    },
    adminCap: (i) => {
      expectType(i, types.adminCap)
    },
    poolMut: (i) => {
      const object = mutableObject(i, normalizeStructTag(`${originalId}::${MODULE}::Pool<${T()}>`))
      if (object.data._tag !== "Pool") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, pool: object.data }
    },
    grantMut: (i) => {
      const object = mutableObject(i, types.grant)
      if (object.data._tag !== "Grant") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, grant: object.data }
    },
    grant: (i) => {
      const object = expectType(i, types.grant)
      if (object.data._tag !== "Grant") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, grant: object.data }
    },
    sessionMut: (i) => {
      const object = mutableObject(i, normalizeStructTag(sessionType(originalId, T())))
      if (object.data._tag !== "Session") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, session: object.data }
    },
    sessionByValue: (i) => {
      const object = expectType(i, normalizeStructTag(sessionType(originalId, T())))
      // Sui takes a shared object by value only from a mutable input (sui-adapter: InvalidObjectByValue otherwise).
      if (!object.mutable) throw argumentError(i, { InvalidObjectByValue: true })
      if (object.data._tag !== "Session") throw argumentError(i, { TypeMismatch: true })
      return { id: object.id, session: object.data }
    },
    coinOfT: (i) => {
      const coin = runtime.coinByValue(arg(i), i)
      if (objectType(coin.coin, originalId) !== normalizeStructTag(`0x2::coin::Coin<${T()}>`)) throw argumentError(i, { TypeMismatch: true })
      return coin
    },
    clock: (i) => {
      expectType(i, types.clock)
      return nowMs
    }
  }
}

/** The frame's pure parameters, decoded from their BCS bytes. */
const pureParameters = ({ arg }: CallArguments, runtime: MoveRuntime): Pick<Frame, "u8" | "u64" | "address" | "addresses" | "bytes" | "u64s"> => ({
  u8: (i) => decode(u8Layout, runtime.pureAt(arg(i), i), i),
  u64: (i) => BigInt(decode(u64Layout, runtime.pureAt(arg(i), i), i)),
  address: (i) => normalizeSuiAddress(decode(addressLayout, runtime.pureAt(arg(i), i), i)),
  addresses: (i) => decode(addressVectorLayout, runtime.pureAt(arg(i), i), i).map((a) => normalizeSuiAddress(a)),
  bytes: (i) => Uint8Array.from(decode(byteVectorLayout, runtime.pureAt(arg(i), i), i)),
  u64s: (i) => decode(u64VectorLayout, runtime.pureAt(arg(i), i), i).map(BigInt)
})

/**
 * Calls into the published `spend_account` module: the function must exist
 * with its type and value arity, then its body runs with the module's
 * rules. `nowMs` is what the Clock reads.
 */
export const spendAccountCalls = (pkg: Pick<SpendAccountPackage, "originalId" | "publishedAt">, nowMs: bigint): CallMove => {
  const originalId = normalizeSuiAddress(pkg.originalId)
  const publishedAt = normalizeSuiAddress(pkg.publishedAt)
  const types: ModuleTypes = {
    originalId,
    registry: normalizeStructTag(registryType(originalId)),
    adminCap: normalizeStructTag(adminCapType(originalId)),
    grant: normalizeStructTag(grantType(originalId)),
    clock: objectType({ _tag: "Clock" }, originalId)
  }

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
    const args = callArguments(call, runtime, originalId)

    const frame: Frame = {
      runtime,
      sender: runtime.sender,
      originalId,
      T,
      abort: (name, at = fn) => {
        throw new Failed({ MoveAbort: [location(publishedAt, MODULE, at, FunctionIndex[at]), AbortCode[name]] })
      },
      emit: (name, layout, value) => runtime.emit(eventType(originalId, name), layout, value),
      ...objectParameters(types, args, runtime, T, nowMs),
      ...pureParameters(args, runtime)
    }
    return entries[fn](frame)
  }
}
