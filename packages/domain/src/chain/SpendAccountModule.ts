import { bcs } from "@mysten/sui/bcs"
import { deriveObjectID, normalizeStructTag } from "@mysten/sui/utils"
import type { GrantWindow, WindowKind } from "./GrantWindow.ts"

/**
 * The one TypeScript description of the Move module
 * `packages/chain/move/sources/spend_account.move`: function names and
 * argument order, event layouts and abort codes. The builders, LocalLedger and
 * the verifiers all read this; it changes together with the Move source.
 */
export const MODULE = "spend_account"

export const CLOCK_OBJECT_ID = "0x0000000000000000000000000000000000000000000000000000000000000006"

export const AbortCode = {
  ENotOwner: 1,
  ENotDelegate: 2,
  EPaused: 3,
  ERevoked: 4,
  EExpired: 5,
  EExceedsMaxPerPayment: 6,
  EExceedsSessionCap: 7,
  EInsufficientBalance: 8,
  EInvalidCaps: 9,
  EWrongPool: 10,
  EAlreadyPaused: 11,
  ENotPaused: 12,
  EZeroAmount: 13,
  EAlreadyRevoked: 14,
  EWrongKind: 15,
  /** The object's `version` is not the one this package version serves: call the package it was migrated to. */
  EWrongVersion: 16,
  /** A create with this nonce already ran on this pool: a create kind executes once. */
  ENonceUsed: 17,
  /** The create's deadline has passed: a prepared grant never goes live late. */
  EDeadlinePassed: 18,
  /** `migrate_*` or `set_version` on something already at this package's version. */
  ENotUpgrade: 19,
  /** The create's window arguments are not a window (`validWindowArguments`). */
  EInvalidWindow: 20,
  /** The payment would take the current window's spending above its limit. */
  EExceedsWindowLimit: 21,
  /** More recipients than MAX_RECIPIENTS. */
  ETooManyRecipients: 22,
  /** The grant lists its recipients and the payment's is not among them. */
  ERecipientNotAllowed: 23,
  /** The create's deadline is further than MAX_CREATE_LIFETIME_MS away. */
  EDeadlineTooFar: 24,
  /** `forget_nonce` before the nonce's deadline. */
  ENonceLive: 25,
  /** `forget_nonce` of a nonce the pool does not hold. */
  ENonceUnknown: 26,
  /** A session's voucher key is not 32 bytes: only Ed25519 keys sign vouchers. */
  EInvalidVoucherKey: 27,
  /** A session's expiry is not in the future, is more than SESSION_MAX_LIFETIME_MS away, or is past the grant's expiry. */
  EInvalidSessionExpiry: 28,
  /** The voucher's signature does not verify under the session's voucher key (for `claim_and_close`: not a final voucher). */
  EBadVoucherSignature: 29,
  /** The voucher's cumulative amount is above the session's deposit. */
  EExceedsDeposit: 30,
  /** The session's claim deadline (expiry + grace, or the close `request_close` set) has passed. */
  EClaimsOver: 31,
  /** `close_session` before the claim deadline by someone other than the payee. */
  ESessionLive: 32,
  /** The grant passed is not the session's. */
  EWrongGrant: 33,
  /** `request_close` while the grant is neither paused nor revoked. */
  EGrantActive: 34,
  /** `top_up` at or past the session's expiry, or after a close was requested. */
  ESessionEnded: 35,
  /** `claim_and_close` by someone other than the session's payee or operator. */
  ENotCloser: 36
} as const
export type AbortName = keyof typeof AbortCode

/**
 * The version this package serves, of the Registry (every call checks it)
 * and of pools and grants. Every entry function refuses a Registry or object
 * at another version (EWrongVersion); an upgrade bumps it, `set_version`
 * moves the Registry and so switches older package versions off, and
 * `migrate_*` moves objects.
 */
export const PACKAGE_VERSION = 1n

/** The most recipients a grant may list (`MAX_RECIPIENTS`). */
export const MAX_RECIPIENTS = 16

/** The furthest a create's deadline may be from the Clock (`MAX_CREATE_LIFETIME_MS`): a week. */
export const MAX_CREATE_LIFETIME_MS = 604_800_000n

/** Grant kinds; this service creates kind 0 through `create_policy_grant`. */
export const GrantKind = { policy: 0, spend: 1, open: 2 } as const

export const pauseFunction = (kind: number) => (["pause_grant", "pause_spend_grant", "pause_open_grant"] as const)[kind]
export const resumeFunction = (kind: number) => (["resume_grant", "resume_spend_grant", "resume_open_grant"] as const)[kind]

/**
 * Argument kinds of each entry function, in order; `TxContext` is implicit.
 * Every function takes the Registry first: it carries the package version
 * every call requires.
 */
export const Functions = {
  /** registry, coin: the pool's id is derived from the registry and (owner, T), so a second pool for the pair aborts. */
  create_pool: { typeParameters: 1, parameters: ["registry_mut", "coin"] },
  deposit: { typeParameters: 1, parameters: ["registry", "pool_mut", "coin"] },
  /** Returns the `Coin<T>` to the transaction. */
  withdraw: { typeParameters: 1, parameters: ["registry", "pool_mut", "u64"] },
  /** registry, pool, nonce, clock: anyone, once the nonce's deadline has passed. */
  forget_nonce: { typeParameters: 1, parameters: ["registry", "pool_mut", "vector<u8>", "clock"] },
  create_policy_grant: {
    typeParameters: 1,
    /**
     * registry, pool, nonce (the gateway's grant id), deadline_ms, delegate, session_cap, max_per_payment,
     * expiry_ms, window_kind, window_period_ms, window_limit, recipients, policy_ids, clock
     */
    parameters: [
      "registry",
      "pool_mut",
      "vector<u8>",
      "u64",
      "address",
      "u64",
      "u64",
      "u64",
      "u8",
      "u64",
      "u64",
      "vector<address>",
      "vector<u64>",
      "clock"
    ]
  },
  revoke_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  pause_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  pause_spend_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  pause_open_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  resume_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  resume_spend_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  resume_open_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  pay: { typeParameters: 1, parameters: ["registry", "grant_mut", "pool_mut", "u64", "address", "vector<u8>", "clock"] },
  /**
   * registry, grant, pool, payee, operator (besides the payee, the only one who may `claim_and_close`), deposit,
   * expiry_ms, voucher_key (Ed25519, 32 bytes), clock: delegate only; shares a `Session<T>`.
   */
  open_session: { typeParameters: 1, parameters: ["registry", "grant_mut", "pool_mut", "address", "address", "u64", "u64", "vector<u8>", "clock"] },
  /** registry, grant, pool, session, amount, clock: delegate only. */
  top_up: { typeParameters: 1, parameters: ["registry", "grant_mut", "pool_mut", "session_mut", "u64", "clock"] },
  /** registry, session, cumulative, signature, clock: anyone; pays the payee up to `cumulative` in all. */
  claim: { typeParameters: 1, parameters: ["registry", "session_mut", "u64", "vector<u8>", "clock"] },
  /** registry, session (by value: deleted), grant, pool, clock: the payee at any time, anyone after the claim deadline. */
  close_session: { typeParameters: 1, parameters: ["registry", "session_by_value", "grant_mut", "pool_mut", "clock"] },
  /** registry, session (by value: deleted), grant, pool, cumulative, final voucher's signature, clock: the payee or the session's operator. */
  claim_and_close: { typeParameters: 1, parameters: ["registry", "session_by_value", "grant_mut", "pool_mut", "u64", "vector<u8>", "clock"] },
  /** registry, session, grant (immutable), clock: the grant's owner, once the grant is paused or revoked. */
  request_close: { typeParameters: 1, parameters: ["registry", "session_mut", "grant", "clock"] },
  /** admin_cap, registry */
  set_version: { typeParameters: 0, parameters: ["admin_cap", "registry_mut"] },
  migrate_pool: { typeParameters: 1, parameters: ["registry", "pool_mut"] },
  migrate_grant: { typeParameters: 0, parameters: ["registry", "grant_mut"] },
  migrate_session: { typeParameters: 1, parameters: ["registry", "session_mut"] }
} as const
export type FunctionName = keyof typeof Functions

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(Functions, name)

/**
 * Where the package lives. Types and events keep the id it was first
 * published at (`originalId`) across upgrades; calls go to the id of the
 * version in use (`publishedAt`). Before any upgrade the two are equal.
 */
export interface SpendAccountPackage {
  readonly originalId: string
  readonly publishedAt: string
  /** The shared `Registry` the package's `init` created; pools are derived from it. */
  readonly registryId: string
}

/**
 * A create's nonce as the module stores it: the gateway's grant id (`g_…`)
 * as UTF-8 bytes. The builder sends these bytes and the verifier expects them
 * back in `GrantCreated`.
 */
export const nonceBytes = (grantId: string): Uint8Array => new TextEncoder().encode(grantId)

/** A call target: always the published-at id. */
export const target = (pkg: SpendAccountPackage, fn: FunctionName) => `${pkg.publishedAt}::${MODULE}::${fn}`

/** `Window`: at most `limit` per window; kind 0 (no window) is all zeros. */
export const WindowLayout = bcs.struct("Window", {
  kind: bcs.u8(),
  period_ms: bcs.u64(),
  limit: bcs.u64(),
  start_ms: bcs.u64(),
  spent: bcs.u64()
})

/** Event layouts, field order as declared in Move (BCS follows it). */
export const Events = {
  PoolCreated: bcs.struct("PoolCreated", { pool_id: bcs.Address, owner: bcs.Address, coin_type: bcs.string() }),
  Deposited: bcs.struct("Deposited", { pool_id: bcs.Address, amount: bcs.u64() }),
  GrantCreated: bcs.struct("GrantCreated", {
    grant_id: bcs.Address,
    /** The create's nonce: the gateway's grant id (`g_…`) as UTF-8 bytes. */
    nonce: bcs.vector(bcs.u8()),
    pool_id: bcs.Address,
    owner: bcs.Address,
    delegate: bcs.Address,
    coin_type: bcs.string(),
    session_cap: bcs.u64(),
    max_per_payment: bcs.u64(),
    expiry_ms: bcs.u64(),
    window: WindowLayout,
    recipients: bcs.vector(bcs.Address),
    policy_ids: bcs.vector(bcs.u64())
  }),
  GrantRevoked: bcs.struct("GrantRevoked", { grant_id: bcs.Address, pool_id: bcs.Address, owner: bcs.Address }),
  GrantPauseSet: bcs.struct("GrantPauseSet", {
    grant_id: bcs.Address,
    pool_id: bcs.Address,
    owner: bcs.Address,
    paused: bcs.bool()
  }),
  PaymentMade: bcs.struct("PaymentMade", {
    grant_id: bcs.Address,
    pool_id: bcs.Address,
    delegate: bcs.Address,
    recipient: bcs.Address,
    amount: bcs.u64(),
    spent: bcs.u64(),
    /** The current window's spending, this payment included; 0 without a window. */
    window_spent: bcs.u64(),
    memo: bcs.vector(bcs.u8())
  }),
  VersionSet: bcs.struct("VersionSet", { version: bcs.u64() }),
  SessionOpened: bcs.struct("SessionOpened", {
    session_id: bcs.Address,
    grant_id: bcs.Address,
    pool_id: bcs.Address,
    delegate: bcs.Address,
    payee: bcs.Address,
    operator: bcs.Address,
    coin_type: bcs.string(),
    voucher_key: bcs.vector(bcs.u8()),
    deposit: bcs.u64(),
    expiry_ms: bcs.u64(),
    /** The grant's spending and its current window's, the deposit included. */
    spent: bcs.u64(),
    window_spent: bcs.u64()
  }),
  SessionToppedUp: bcs.struct("SessionToppedUp", {
    session_id: bcs.Address,
    grant_id: bcs.Address,
    amount: bcs.u64(),
    /** The session's deposit in all, this amount included. */
    deposit: bcs.u64(),
    spent: bcs.u64(),
    window_spent: bcs.u64()
  }),
  SessionClaimed: bcs.struct("SessionClaimed", { session_id: bcs.Address, payee: bcs.Address, amount: bcs.u64(), claimed: bcs.u64() }),
  SessionClosed: bcs.struct("SessionClosed", {
    session_id: bcs.Address,
    grant_id: bcs.Address,
    payee: bcs.Address,
    claimed: bcs.u64(),
    /** What went back to the pool. */
    returned: bcs.u64(),
    /** The grant's spending and its current window's, after the refund. */
    spent: bcs.u64(),
    window_spent: bcs.u64()
  }),
  SessionCloseRequested: bcs.struct("SessionCloseRequested", { session_id: bcs.Address, grant_id: bcs.Address, close_at_ms: bcs.u64() })
} as const
export type EventName = keyof typeof Events

/** An event's type: always under the original id. */
export const eventType = (originalId: string, name: EventName) => `${originalId}::${MODULE}::${name}`

const UID = bcs.Address
const BalanceLayout = bcs.struct("Balance", { value: bcs.u64() })

/**
 * The BCS contents of the objects the module and the framework define, field
 * order as declared in Move: what a full node returns as an object's
 * `contents`, and what the ledger's object digests hash.
 */
export const Structs = {
  /** The one shared object `init` creates at publish; every pool's id is derived from it, every call checks its version. */
  Registry: bcs.struct("Registry", { id: UID, version: bcs.u64() }),
  /** Sent to the publisher by `init`: moves the Registry to a new package version. */
  AdminCap: bcs.struct("AdminCap", { id: UID }),
  Pool: bcs.struct("Pool", {
    id: UID,
    version: bcs.u64(),
    owner: bcs.Address,
    balance: BalanceLayout,
    /** `Table<vector<u8>, u64>`: the create nonces this pool holds, each with its deadline; entries live in dynamic fields. */
    nonces: bcs.struct("Table", { id: UID, size: bcs.u64() })
  }),
  Grant: bcs.struct("Grant", {
    id: UID,
    version: bcs.u64(),
    pool_id: bcs.Address,
    owner: bcs.Address,
    delegate: bcs.Address,
    session_cap: bcs.u64(),
    spent: bcs.u64(),
    max_per_payment: bcs.u64(),
    expiry_ms: bcs.u64(),
    window: WindowLayout,
    recipients: bcs.vector(bcs.Address),
    paused: bcs.bool(),
    revoked: bcs.bool(),
    policy_ids: bcs.vector(bcs.u64()),
    kind: bcs.u8()
  }),
  /** A deposit for one payee, claimed with the delegate's Ed25519 vouchers; shared, deleted when closed. */
  Session: bcs.struct("Session", {
    id: UID,
    version: bcs.u64(),
    grant_id: bcs.Address,
    pool_id: bcs.Address,
    owner: bcs.Address,
    delegate: bcs.Address,
    payee: bcs.Address,
    /** Besides the payee, the only one who may end the session early with a final voucher (`claim_and_close`). */
    operator: bcs.Address,
    voucher_key: bcs.vector(bcs.u8()),
    /** What is left to claim: `deposit - claimed` until closed. */
    balance: BalanceLayout,
    /** Everything deposited: at open and by every top up. */
    deposit: bcs.u64(),
    claimed: bcs.u64(),
    expiry_ms: bcs.u64(),
    /** The claim deadline `request_close` set; 0 = none. */
    close_at_ms: bcs.u64(),
    /** The grant window the deposits were last charged to, and how much: what a close may give back to it. */
    window_start_ms: bcs.u64(),
    window_charged: bcs.u64()
  }),
  Coin: bcs.struct("Coin", { id: UID, balance: BalanceLayout }),
  Clock: bcs.struct("Clock", { id: UID, timestamp_ms: bcs.u64() })
} as const

/** The full, normalized struct tag of a coin type, as the chain writes it in type arguments. */
export const normalizeCoinType = (coinType: string) => normalizeStructTag(coinType)

/**
 * A coin type as Move's `type_name::with_defining_ids` renders it in events:
 * the normalized tag with every address written as 64 hex digits without
 * `0x`, type arguments included (`…::wrapper::W<…::x::Y>`).
 */
export const typeNameOf = (coinType: string) => normalizeCoinType(coinType).replace(/0x([0-9a-f]{64})/g, "$1")

export const poolType = (originalId: string, coinType: string) => `${originalId}::${MODULE}::Pool<${normalizeCoinType(coinType)}>`
export const grantType = (originalId: string) => `${originalId}::${MODULE}::Grant`
export const sessionType = (originalId: string, coinType: string) => `${originalId}::${MODULE}::Session<${normalizeCoinType(coinType)}>`
export const registryType = (originalId: string) => `${originalId}::${MODULE}::Registry`
export const adminCapType = (originalId: string) => `${originalId}::${MODULE}::AdminCap`

/** A Grant's window as the pure rules read it (`GrantWindow.ts`). */
export const grantWindowOf = (grant: { readonly window: typeof WindowLayout.$inferType }): GrantWindow => ({
  kind: grant.window.kind as WindowKind,
  periodMs: BigInt(grant.window.period_ms),
  limit: BigInt(grant.window.limit),
  startMs: BigInt(grant.window.start_ms),
  spent: BigInt(grant.window.spent)
})

/** `PoolKey<T> { owner }`: the key a pool's id is derived under. */
export const poolKeyType = (originalId: string, coinType: string) => `${originalId}::${MODULE}::PoolKey<${normalizeCoinType(coinType)}>`

/**
 * The id of `owner`'s pool for `coinType`, exactly as `derived_object::claim`
 * derives it in `create_pool`: anyone can compute where a pool is (or will
 * be) without scanning events or asking an index.
 */
export const poolIdOf = (pkg: { readonly originalId: string; readonly registryId: string }, owner: string, coinType: string) =>
  deriveObjectID(pkg.registryId, poolKeyType(pkg.originalId, coinType), bcs.Address.serialize(owner).toBytes())

export const coinObjectType = (coinType: string) => `0x2::coin::Coin<${normalizeCoinType(coinType)}>`
export const SUI_COIN_TYPE = "0x2::sui::SUI"
