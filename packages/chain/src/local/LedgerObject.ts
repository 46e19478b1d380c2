import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"
import { normalizeStructTag, parseStructTag, toBase58 } from "@mysten/sui/utils"
import { coinObjectType, grantType, normalizeCoinType, poolType, registryType, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"

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
  /** The create nonces the pool has seen, hex; on Sui they are the table's dynamic fields. */
  readonly nonces: ReadonlyArray<string>
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
  readonly paused: boolean
  readonly revoked: boolean
  readonly policyIds: ReadonlyArray<bigint>
  readonly kind: number
}

export interface ClockData {
  readonly _tag: "Clock"
}

/** The package's `Registry`; the pools derived from it are its claims (on Sui, dynamic fields of its UID). */
export interface RegistryData {
  readonly _tag: "Registry"
}

export type ObjectData = CoinData | PoolData | GrantData | ClockData | RegistryData

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

const ObjectIdDerivation = bcs.struct("ObjectIdDerivation", { scope: bcs.u8(), digest: bcs.fixedArray(32, bcs.u8()), creation: bcs.u64() })

/**
 * Sui's `ObjectID::derive_id`: Blake2b-256 over the RegularObjectId scope byte
 * (0xf1), the transaction digest and the creation number (u64 LE).
 */
export const deriveObjectId = (txDigestBytes: Uint8Array, creationNumber: number): string => {
  const input = ObjectIdDerivation.serialize({ scope: 0xf1, digest: Array.from(txDigestBytes), creation: BigInt(creationNumber) }).toBytes()
  return `0x${Buffer.from(blake2b(input, { dkLen: 32 })).toString("hex")}`
}

/** The object's Move type, with types and events under the package's original id. */
export const objectType = (data: ObjectData, originalId: string): string => {
  switch (data._tag) {
    case "Coin":
      return normalizeStructTag(coinObjectType(data.coinType))
    case "Pool":
      return normalizeStructTag(poolType(originalId, data.coinType))
    case "Grant":
      return normalizeStructTag(grantType(originalId))
    case "Clock":
      return normalizeStructTag("0x2::clock::Clock")
    case "Registry":
      return normalizeStructTag(registryType(originalId))
  }
}

/** The object's Move contents as BCS, field order as declared in Move; the Clock shows `nowMs`. */
export const objectContents = (id: string, data: ObjectData, nowMs: bigint = 0n): Uint8Array => {
  switch (data._tag) {
    case "Coin":
      return Structs.Coin.serialize({ id, balance: { value: data.balance } }).toBytes()
    case "Pool":
      return Structs.Pool.serialize({
        id,
        version: data.version,
        owner: data.owner,
        balance: { value: data.balance },
        nonces: { id: data.noncesId, size: BigInt(data.nonces.length) }
      }).toBytes()
    case "Grant":
      return Structs.Grant.serialize({
        id,
        version: data.version,
        pool_id: data.poolId,
        owner: data.owner,
        delegate: data.delegate,
        session_cap: data.sessionCap,
        spent: data.spent,
        max_per_payment: data.maxPerPayment,
        expiry_ms: data.expiryMs,
        paused: data.paused,
        revoked: data.revoked,
        policy_ids: [...data.policyIds],
        kind: data.kind
      }).toBytes()
    case "Clock":
      return Structs.Clock.serialize({ id, timestamp_ms: nowMs }).toBytes()
    case "Registry":
      return Structs.Registry.serialize({ id }).toBytes()
  }
}

const ownerBcs = (owner: Owner) => {
  switch (owner._tag) {
    case "Address":
      return { AddressOwner: owner.address }
    case "Shared":
      return { Shared: { initialSharedVersion: owner.initialSharedVersion } }
    case "Immutable":
      return { Immutable: true }
  }
}

/** `MoveObjectType` as Sui writes it: SUI coins are `GasCoin`, other coins `Coin(T)`, everything else its struct tag. */
const moveObjectType = (data: ObjectData, originalId: string) => {
  if (data._tag === "Coin") {
    return normalizeCoinType(data.coinType) === normalizeCoinType(SUI_COIN_TYPE)
      ? { GasCoin: true }
      : { Coin: bcs.TypeTag.serialize(normalizeCoinType(data.coinType)).toBytes() }
  }
  return { Other: parseStructTag(objectType(data, originalId)) }
}

/** The object as Sui serializes it (`Object`), which its digest and `bcs` read mask hash and return. */
export const objectBcs = (object: Omit<LedgerObject, "digest">, originalId: string, nowMs: bigint = 0n): Uint8Array => {
  const type = moveObjectType(object.data, originalId)
  return bcs.Object.serialize({
    data: {
      Move: {
        type: "Coin" in type ? { Coin: bcs.TypeTag.parse(type.Coin) } : type,
        hasPublicTransfer: object.data._tag === "Coin",
        version: object.version,
        contents: objectContents(object.id, object.data, nowMs)
      }
    },
    owner: ownerBcs(object.owner),
    previousTransaction: object.previousTransaction,
    storageRebate: object.storageRebate
  }).toBytes()
}

const OBJECT_PREFIX = new TextEncoder().encode("Object::")

/** Sui's `ObjectDigest`: Blake2b-256 over `Object::` and the object's BCS. */
export const objectDigest = (object: Omit<LedgerObject, "digest">, originalId: string): string =>
  toBase58(blake2b(new Uint8Array([...OBJECT_PREFIX, ...objectBcs(object, originalId)]), { dkLen: 32 }))

/** The object at `version`, its digest recomputed. */
export const withVersion = (object: Omit<LedgerObject, "digest" | "version">, version: bigint, originalId: string): LedgerObject => {
  const versioned = { ...object, version }
  return { ...versioned, digest: objectDigest(versioned, originalId) }
}
