import { bcs } from "@mysten/sui/bcs"
import { normalizeStructTag } from "@mysten/sui/utils"

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
  EWrongKind: 15
} as const
export type AbortName = keyof typeof AbortCode

/** Grant kinds; this service creates kind 0 through `create_policy_grant`. */
export const GrantKind = { policy: 0, spend: 1, open: 2 } as const

export const pauseFunction = (kind: number) => (["pause_grant", "pause_spend_grant", "pause_open_grant"] as const)[kind]
export const resumeFunction = (kind: number) => (["resume_grant", "resume_spend_grant", "resume_open_grant"] as const)[kind]

/** Argument kinds of each entry function, in order; `TxContext` is implicit. */
export const Functions = {
  create_pool: { typeParameters: 1, parameters: ["coin"] },
  deposit: { typeParameters: 1, parameters: ["pool_mut", "coin"] },
  withdraw: { typeParameters: 1, parameters: ["pool_mut", "u64"] },
  create_policy_grant: {
    typeParameters: 1,
    parameters: ["pool", "address", "u64", "u64", "u64", "vector<u64>", "clock"]
  },
  revoke_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  pause_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  pause_spend_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  pause_open_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  resume_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  resume_spend_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  resume_open_grant: { typeParameters: 0, parameters: ["grant_mut"] },
  pay: { typeParameters: 1, parameters: ["grant_mut", "pool_mut", "u64", "address", "vector<u8>", "clock"] }
} as const
export type FunctionName = keyof typeof Functions

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(Functions, name)

export const target = (packageId: string, fn: FunctionName) => `${packageId}::${MODULE}::${fn}`

/** Event layouts, field order as declared in Move (BCS follows it). */
export const Events = {
  PoolCreated: bcs.struct("PoolCreated", { pool_id: bcs.Address, owner: bcs.Address, coin_type: bcs.string() }),
  Deposited: bcs.struct("Deposited", { pool_id: bcs.Address, amount: bcs.u64() }),
  GrantCreated: bcs.struct("GrantCreated", {
    grant_id: bcs.Address,
    pool_id: bcs.Address,
    owner: bcs.Address,
    delegate: bcs.Address,
    coin_type: bcs.string(),
    session_cap: bcs.u64(),
    max_per_payment: bcs.u64(),
    expiry_ms: bcs.u64(),
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
    memo: bcs.vector(bcs.u8())
  })
} as const
export type EventName = keyof typeof Events

export const eventType = (packageId: string, name: EventName) => `${packageId}::${MODULE}::${name}`

/** The full, normalized struct tag of a coin type, as the chain writes it in type arguments. */
export const normalizeCoinType = (coinType: string) => normalizeStructTag(coinType)

/**
 * A coin type as Move's `type_name` renders it in events: the normalized tag
 * without the `0x` prefix.
 */
export const typeNameOf = (coinType: string) => normalizeCoinType(coinType).replace(/^0x/, "")

export const poolType = (packageId: string, coinType: string) => `${packageId}::${MODULE}::Pool<${normalizeCoinType(coinType)}>`
export const grantType = (packageId: string) => `${packageId}::${MODULE}::Grant`
export const coinObjectType = (coinType: string) => `0x2::coin::Coin<${normalizeCoinType(coinType)}>`
export const SUI_COIN_TYPE = "0x2::sui::SUI"
