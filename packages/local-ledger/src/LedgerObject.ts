import { bcs, TypeTagSerializer } from "@mysten/sui/bcs"
import { fromHex, normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import type { GrantWindow } from "@gateway/domain/chain/GrantWindow"
import {
  adminCapType,
  CLOCK_OBJECT_ID,
  coinObjectType,
  grantType,
  normalizeCoinType,
  PACKAGE_VERSION,
  poolType,
  registryType,
  sessionType,
  Structs,
  SUI_COIN_TYPE
} from "@gateway/domain/chain/SpendAccountModule"
import { genesisDigest } from "@gateway/chain/LocalNetwork"
import { makeMemo } from "@gateway/chain/Memo"
import { addressBytes } from "./AddressBytes.ts"
import { suiDigest } from "./SuiDigest.ts"

/** Who may use an object, as Sui records it. */
export type Owner =
  | { readonly _tag: "Address"; readonly address: string }
  | { readonly _tag: "Shared"; readonly initialSharedVersion: bigint }
  | { readonly _tag: "Immutable" }

export interface CoinData {
  readonly _tag: "Coin"
  readonly coinType: string
  readonly balance: bigint
}

export interface PoolData {
  readonly _tag: "Pool"
  readonly coinType: string
  /** The package version the pool was created or last migrated under (`PACKAGE_VERSION` gates it). */
  readonly version: bigint
  readonly owner: string
  readonly balance: bigint
  /** The id of the pool's `Table` of create nonces. */
  readonly noncesId: string
  /** The create nonces the pool holds, hex, each with its deadline; on Sui they are the table's dynamic fields. */
  readonly nonces: ReadonlyArray<PoolNonce>
}

export interface PoolNonce {
  readonly nonce: string
  readonly deadlineMs: bigint
}

export interface GrantData {
  readonly _tag: "Grant"
  readonly version: bigint
  readonly poolId: string
  readonly owner: string
  readonly delegate: string
  readonly sessionCap: bigint
  readonly spent: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
  readonly window: GrantWindow
  /** The only recipients `pay` may pay, normalized; empty for any. */
  readonly recipients: ReadonlyArray<string>
  readonly paused: boolean
  readonly revoked: boolean
  readonly policyIds: ReadonlyArray<bigint>
  readonly kind: number
}

/** A session: a deposit out of a grant's pool for one payee, claimed against the delegate's Ed25519 vouchers. */
export interface SessionData {
  readonly _tag: "Session"
  readonly coinType: string
  readonly version: bigint
  readonly grantId: string
  readonly poolId: string
  readonly owner: string
  readonly delegate: string
  readonly payee: string
  /** Besides the payee, the only one who may end the session early with a final voucher (`claim_and_close`). */
  readonly operator: string
  /** The Ed25519 public key vouchers are signed with, hex without `0x`. */
  readonly voucherKey: string
  readonly balance: bigint
  readonly deposit: bigint
  readonly claimed: bigint
  readonly expiryMs: bigint
  /** The claim deadline `request_close` set; 0 = none. */
  readonly closeAtMs: bigint
  readonly windowStartMs: bigint
  readonly windowCharged: bigint
}

export interface ClockData {
  readonly _tag: "Clock"
}

/** The package's `Registry`; the pools derived from it are its claims (on Sui, dynamic fields of its UID). */
export interface RegistryData {
  readonly _tag: "Registry"
  /** The package version every call requires (`set_version` moves it). */
  readonly version: bigint
}

/** The right to move the Registry to a new package version. */
export interface AdminCapData {
  readonly _tag: "AdminCap"
}

export type ObjectData = CoinData | PoolData | GrantData | SessionData | ClockData | RegistryData | AdminCapData

export interface LedgerObject {
  readonly id: string
  readonly version: bigint
  /** Sui's object digest of this version (see `objectDigest`). */
  readonly digest: string
  readonly owner: Owner
  /** The transaction that created it; an object is visible to readers of final state once that is checkpointed. */
  readonly createdBy: string
  /** The digest of the transaction that wrote this version (Sui's `previous_transaction`); genesis and faucet objects name a digest of their own. */
  readonly previousTransaction: string
  /** What deleting this object would refund: the storage fee paid when this version was written. */
  readonly storageRebate: bigint
  readonly data: ObjectData
}

/** What an object's type depends on: its kind, its coin type and the package. */
const typeKey = (data: ObjectData, originalId: string) =>
  `${data._tag}|${data._tag === "Coin" || data._tag === "Pool" || data._tag === "Session" ? data.coinType : ""}|${originalId}`

/**
 * `compute` remembered by `typeKey`: there are few distinct keys (one per coin type on the ledger), and
 * each is asked for at every read and write.
 */
const byTypeKey = <A>(compute: (data: ObjectData, originalId: string) => A) => {
  const memo = makeMemo<A>()
  return (data: ObjectData, originalId: string): A => memo(typeKey(data, originalId), () => compute(data, originalId))
}

/** The object's Move type, with types and events under the package's original id. */
export const objectType = byTypeKey((data, originalId) => normalizedObjectType(data, originalId))

const normalizedObjectType = (data: ObjectData, originalId: string): string => {
  switch (data._tag) {
    case "Coin":
      return normalizeStructTag(coinObjectType(data.coinType))
    case "Pool":
      return normalizeStructTag(poolType(originalId, data.coinType))
    case "Grant":
      return normalizeStructTag(grantType(originalId))
    case "Session":
      return normalizeStructTag(sessionType(originalId, data.coinType))
    case "Clock":
      return normalizeStructTag("0x2::clock::Clock")
    case "Registry":
      return normalizeStructTag(registryType(originalId))
    case "AdminCap":
      return normalizeStructTag(adminCapType(originalId))
  }
}

/** The object's Move contents as BCS, field order as declared in Move; the Clock shows `nowMs`. */
export const objectContents = (id: string, data: ObjectData, nowMs: bigint = 0n): Uint8Array => {
  switch (data._tag) {
    case "Coin":
      return Structs.Coin.serialize({ id: addressBytes(id), balance: { value: data.balance } }).toBytes()
    case "Pool":
      return Structs.Pool.serialize({
        id: addressBytes(id),
        version: data.version,
        owner: addressBytes(data.owner),
        balance: { value: data.balance },
        nonces: { id: addressBytes(data.noncesId), size: BigInt(data.nonces.length) }
      }).toBytes()
    case "Grant":
      return Structs.Grant.serialize({
        id: addressBytes(id),
        version: data.version,
        pool_id: addressBytes(data.poolId),
        owner: addressBytes(data.owner),
        delegate: addressBytes(data.delegate),
        session_cap: data.sessionCap,
        spent: data.spent,
        max_per_payment: data.maxPerPayment,
        expiry_ms: data.expiryMs,
        window: {
          kind: data.window.kind,
          period_ms: data.window.periodMs,
          limit: data.window.limit,
          start_ms: data.window.startMs,
          spent: data.window.spent
        },
        recipients: data.recipients.map(addressBytes),
        paused: data.paused,
        revoked: data.revoked,
        policy_ids: [...data.policyIds],
        kind: data.kind
      }).toBytes()
    case "Session":
      return sessionContents(id, data)
    case "Clock":
      return Structs.Clock.serialize({ id: addressBytes(id), timestamp_ms: nowMs }).toBytes()
    case "Registry":
      return Structs.Registry.serialize({ id: addressBytes(id), version: data.version }).toBytes()
    case "AdminCap":
      return Structs.AdminCap.serialize({ id: addressBytes(id) }).toBytes()
  }
}

const sessionContents = (id: string, data: SessionData): Uint8Array =>
  Structs.Session.serialize({
    id: addressBytes(id),
    version: data.version,
    grant_id: addressBytes(data.grantId),
    pool_id: addressBytes(data.poolId),
    owner: addressBytes(data.owner),
    delegate: addressBytes(data.delegate),
    payee: addressBytes(data.payee),
    operator: addressBytes(data.operator),
    voucher_key: Array.from(fromHex(data.voucherKey)),
    balance: { value: data.balance },
    deposit: data.deposit,
    claimed: data.claimed,
    expiry_ms: data.expiryMs,
    close_at_ms: data.closeAtMs,
    window_start_ms: data.windowStartMs,
    window_charged: data.windowCharged
  }).toBytes()

/** An owner as Sui's `Owner` BCS takes it (objects and effects alike). */
export const ownerBcs = (owner: Owner) => {
  switch (owner._tag) {
    case "Address":
      return { AddressOwner: addressBytes(owner.address) }
    case "Shared":
      return { Shared: { initialSharedVersion: owner.initialSharedVersion } }
    case "Immutable":
      return { Immutable: true }
  }
}

type MoveObjectType = Parameters<typeof bcs.Object.serialize>[0]["data"] extends infer D ? D extends { Move: { type: infer T } } ? T : never
  : never

/** `MoveObjectType` as Sui writes it: SUI coins are `GasCoin`, other coins `Coin(T)`, everything else its struct tag. */
const moveObjectType = (data: ObjectData, originalId: string): MoveObjectType => {
  if (data._tag === "Coin") {
    return normalizeCoinType(data.coinType) === normalizeCoinType(SUI_COIN_TYPE) ? { GasCoin: true } : { Coin: normalizeCoinType(data.coinType) }
  }
  const tag = TypeTagSerializer.parseFromStr(objectType(data, originalId), true)
  if (!("struct" in tag)) throw new Error(`${objectType(data, originalId)} is not a struct type`)
  return { Other: tag.struct }
}

/** Parsed `MoveObjectType`s: parsing a struct tag costs more than serializing it. */
const cachedMoveObjectType = byTypeKey(moveObjectType)

/** An object version's Move contents and `Object` BCS, for the package and Clock time they were made with. */
interface Encoding {
  readonly originalId: string
  readonly nowMs: bigint
  readonly contents: Uint8Array
  readonly bytes: Uint8Array
}

/**
 * Encodings by object version. Versions are immutable values, so one
 * serialization serves the storage charge, the digest and every read; only
 * the Clock's contents depend on `nowMs`. The bytes are shared: readers
 * copy them (as protobuf encoding does), never write to them.
 */
const encodings = new WeakMap<Omit<LedgerObject, "digest">, Encoding>()

const encodingOf = (object: Omit<LedgerObject, "digest">, originalId: string, nowMs: bigint): Encoding => {
  const cached = encodings.get(object)
  if (cached !== undefined && cached.originalId === originalId && (object.data._tag !== "Clock" || cached.nowMs === nowMs)) return cached
  const contents = objectContents(object.id, object.data, nowMs)
  const bytes = bcs.Object.serialize({
    data: {
      Move: {
        type: cachedMoveObjectType(object.data, originalId),
        hasPublicTransfer: object.data._tag === "Coin",
        version: object.version,
        contents
      }
    },
    owner: ownerBcs(object.owner),
    previousTransaction: object.previousTransaction,
    storageRebate: object.storageRebate
  }).toBytes()
  const encoding = { originalId, nowMs, contents, bytes }
  encodings.set(object, encoding)
  return encoding
}

/** The object as Sui serializes it (`Object`), which its digest and `bcs` read mask hash and return. */
export const objectBcs = (object: Omit<LedgerObject, "digest">, originalId: string, nowMs: bigint = 0n): Uint8Array =>
  encodingOf(object, originalId, nowMs).bytes

/** The object's Move contents (`objectContents`), from the same serialization as its `objectBcs`. */
export const objectContentsOf = (object: Omit<LedgerObject, "digest">, originalId: string, nowMs: bigint = 0n): Uint8Array =>
  encodingOf(object, originalId, nowMs).contents

/** Sui's `ObjectDigest`: Blake2b-256 over `Object::` and the object's BCS. */
export const objectDigest = (object: Omit<LedgerObject, "digest">, originalId: string): string => suiDigest("Object", objectBcs(object, originalId))

/** The object at `version`, its digest recomputed; its encoding stays cached for the version it returns. */
export const withVersion = (object: Omit<LedgerObject, "digest" | "version">, version: bigint, originalId: string): LedgerObject => {
  const versioned = { ...object, version }
  const digest = objectDigest(versioned, originalId)
  const result = { ...versioned, digest }
  const encoding = encodings.get(versioned)
  if (encoding !== undefined) encodings.set(result, encoding)
  return result
}

/** Where `Object`'s BCS keeps `storage_rebate`: its last field, a u64, little-endian. */
const REBATE_BYTES = 8

/**
 * The object with `storageRebate` set, from the bytes already serialized
 * for it: the rebate is `Object`'s last field and fixed-width, so only those
 * 8 bytes differ. Writing an object costs its size, priced before the rebate
 * it records is known; this spares serializing it a second time.
 */
export const withStorageRebate = (object: Omit<LedgerObject, "digest">, storageRebate: bigint, originalId: string): LedgerObject => {
  const before = encodingOf(object, originalId, 0n)
  const bytes = before.bytes.slice()
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setBigUint64(bytes.length - REBATE_BYTES, storageRebate, true)
  const encoding = { ...before, bytes }
  const rebated = { ...object, storageRebate }
  encodings.set(rebated, encoding)
  const result = { ...rebated, digest: objectDigest(rebated, originalId) }
  encodings.set(result, encoding)
  return result
}

/** Sui's `storage_gas_price`: MIST per storage unit. */
export const STORAGE_PRICE = 76n
/** Sui's `obj_data_cost_refundable`: storage units per byte of a written object. */
export const STORAGE_UNITS_PER_BYTE = 100n

/**
 * What writing this object costs in storage, and what deleting or rewriting
 * it later refunds (99% of it): its size × 100 units × 76 MIST. The size is
 * the object's full BCS (data, owner, previous transaction, rebate), which is
 * what Sui meters: the Move contents plus the type, version and a fixed
 * per-object overhead. Balances and versions are fixed-width, so the cost
 * does not depend on them.
 */
export const storageCost = (object: Omit<LedgerObject, "digest">, originalId: string): bigint =>
  BigInt(objectBcs(object, originalId).length) * STORAGE_UNITS_PER_BYTE * STORAGE_PRICE

/** The initial shared version of the objects genesis creates, as on Sui. */
const GENESIS_VERSION = 1n

/**
 * What exists before any transaction: the Clock at 0x6 and the package's
 * Registry (at `pkg.registryId`), both shared at version 1 and written by the
 * genesis digest, each carrying its storage cost as its rebate.
 */
export const genesisObjects = (pkg: { readonly originalId: string; readonly registryId: string }): ReadonlyArray<LedgerObject> => {
  const previousTransaction = genesisDigest(pkg.originalId)
  const made = (id: string, data: ObjectData): LedgerObject => {
    const object = {
      id,
      owner: { _tag: "Shared", initialSharedVersion: GENESIS_VERSION } as const,
      createdBy: previousTransaction,
      previousTransaction,
      storageRebate: 0n,
      data
    }
    return withVersion({ ...object, storageRebate: storageCost({ ...object, version: GENESIS_VERSION }, pkg.originalId) }, GENESIS_VERSION, pkg.originalId)
  }
  return [made(normalizeSuiAddress(CLOCK_OBJECT_ID), { _tag: "Clock" }), made(normalizeSuiAddress(pkg.registryId), { _tag: "Registry", version: PACKAGE_VERSION })]
}
