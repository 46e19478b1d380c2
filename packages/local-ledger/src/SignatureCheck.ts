import { createPublicKey, verify } from "node:crypto"
import { messageWithIntent } from "@mysten/sui/cryptography"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { blake2b } from "@noble/hashes/blake2.js"
import { Effect } from "effect"
import { decodeBase64 } from "@gateway/chain/Base64"

/** Sui's serialized Ed25519 signature: flag 0x00, the 64-byte signature, the 32-byte public key. */
const ED25519_FLAG = 0x00
const SIGNATURE_LENGTH = 64
const PUBLIC_KEY_LENGTH = 32
const SERIALIZED_LENGTH = 1 + SIGNATURE_LENGTH + PUBLIC_KEY_LENGTH

/** The DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410): how `node:crypto` takes a raw 32-byte key. */
const ED25519_SPKI_HEADER = Buffer.from("302a300506032b6570032100", "hex")

/** Sui's address of an Ed25519 key: Blake2b-256 over the flag and the key. */
const ed25519Address = (publicKey: Uint8Array) => {
  const flagged = new Uint8Array(1 + PUBLIC_KEY_LENGTH)
  flagged[0] = ED25519_FLAG
  flagged.set(publicKey, 1)
  return normalizeSuiAddress(toHex(blake2b(flagged, { dkLen: 32 })))
}

/** OpenSSL's verdict; a key it cannot load is no verdict. */
const nativeVerify = (digest: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean => {
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_HEADER, publicKey]), format: "der", type: "spki" })
    return verify(null, digest, key, signature)
  } catch {
    return false
  }
}

/** The SDK's verifier, which is what Sui's rules are here: every scheme, and Ed25519 under ZIP-215. */
const sdkVerify = (txBytes: Uint8Array, signature: string, address: string) =>
  Effect.promise(() => verifyTransactionSignature(txBytes, signature, { address }).then(() => true, () => false))

/**
 * Whether `signature` (serialized, base64) is `address`'s valid signature of
 * the transaction: the SDK's `verifyTransactionSignature`, with Ed25519 run
 * natively first. Native acceptance implies the SDK's: OpenSSL checks the
 * cofactorless equation on canonical encodings, which implies the cofactored
 * ZIP-215 one the SDK (and Sui) check. Anything OpenSSL refuses, and every
 * other scheme, goes to the SDK, so the answer is always the SDK's.
 */
export const signedBy = (txBytes: Uint8Array, signature: string, address: string): Effect.Effect<boolean> => {
  let bytes: Uint8Array
  try {
    bytes = decodeBase64(signature)
  } catch {
    return sdkVerify(txBytes, signature, address)
  }
  if (bytes.length !== SERIALIZED_LENGTH || bytes[0] !== ED25519_FLAG) return sdkVerify(txBytes, signature, address)
  const publicKey = bytes.subarray(1 + SIGNATURE_LENGTH)
  // The SDK refuses a key that is not the address's whatever the signature; so does this, before any curve arithmetic.
  if (ed25519Address(publicKey) !== normalizeSuiAddress(address)) return Effect.succeed(false)
  const digest = blake2b(messageWithIntent("TransactionData", txBytes), { dkLen: 32 })
  return nativeVerify(digest, bytes.subarray(1, 1 + SIGNATURE_LENGTH), publicKey) ? Effect.succeed(true) : sdkVerify(txBytes, signature, address)
}
