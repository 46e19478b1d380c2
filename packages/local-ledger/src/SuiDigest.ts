import { toBase58 } from "@mysten/sui/utils"
import { blake2b } from "@noble/hashes/blake2.js"

/** Sui's digests: Blake2b-256 over the type's name, `::`, and its BCS (`Object::` for objects, and so on), base58. */
export const suiDigest = (typeName: string, bytes: Uint8Array): string => {
  const prefix = new TextEncoder().encode(`${typeName}::`)
  const input = new Uint8Array(prefix.length + bytes.length)
  input.set(prefix)
  input.set(bytes, prefix.length)
  return toBase58(blake2b(input, { dkLen: 32 }))
}
