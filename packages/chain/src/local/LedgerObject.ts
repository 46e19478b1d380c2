import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"
import { toBase58 } from "@mysten/sui/utils"

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
  readonly owner: string
  readonly balance: bigint
}

export interface GrantData {
  readonly _tag: "Grant"
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

export type ObjectData = CoinData | PoolData | GrantData | ClockData

export interface LedgerObject {
  readonly id: string
  readonly version: bigint
  readonly digest: string
  readonly owner: Owner
  /** The transaction that created it; an object is visible to readers of final state once that is checkpointed. */
  readonly createdBy: string
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

const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))

/** A content digest for an object version (Sui hashes the object's BCS; this hashes its canonical JSON). */
export const objectDigest = (id: string, version: bigint, owner: Owner, data: ObjectData): string =>
  toBase58(blake2b(new TextEncoder().encode(stable({ id, version, owner, data })), { dkLen: 32 }))

export const withVersion = (object: Omit<LedgerObject, "digest" | "version">, version: bigint): LedgerObject => ({
  ...object,
  version,
  digest: objectDigest(object.id, version, object.owner, object.data)
})
