import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"

const ObjectIdDerivation = bcs.struct("ObjectIdDerivation", { scope: bcs.u8(), digest: bcs.fixedArray(32, bcs.u8()), creation: bcs.u64() })

/**
 * Sui's `ObjectID::derive_id`: Blake2b-256 over the RegularObjectId scope byte
 * (0xf1), the transaction digest and the creation number (u64 LE).
 */
export const deriveObjectId = (txDigestBytes: Uint8Array, creationNumber: number): string => {
  const input = ObjectIdDerivation.serialize({ scope: 0xf1, digest: Array.from(txDigestBytes), creation: BigInt(creationNumber) }).toBytes()
  return `0x${Buffer.from(blake2b(input, { dkLen: 32 })).toString("hex")}`
}
