import { createPublicKey, verify } from "node:crypto"
import { bcs } from "@mysten/sui/bcs"
import { type IntentScope, messageWithIntent } from "@mysten/sui/cryptography"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import { isValidPersonalMessageSignature, verifyTransactionSignature } from "@mysten/sui/verify"
import { blake2b } from "@noble/hashes/blake2.js"
import { decodeBase64 } from "./Base64.ts"

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

/** What the native check answers: the signature is the address's, it is not (a key of another address), or the SDK must say. */
type NativeVerdict = "valid" | "invalid" | "ask_sdk"

/**
 * Ed25519 through OpenSSL (about 0.1 ms, against 1–2 ms for the SDK's
 * JavaScript curve). Native acceptance implies the SDK's: OpenSSL checks the
 * cofactorless equation on canonical encodings, which implies the cofactored
 * ZIP-215 one the SDK (and Sui) check. What OpenSSL refuses, and every other
 * scheme, goes to the SDK, so the answer is always the SDK's.
 */
const nativeEd25519 = (scope: IntentScope, message: Uint8Array, signature: string, address: string): NativeVerdict => {
  let bytes: Uint8Array
  try {
    bytes = decodeBase64(signature)
  } catch {
    return "ask_sdk"
  }
  // An address not in its normal form is the SDK's to judge: it compares addresses as given.
  if (bytes.length !== SERIALIZED_LENGTH || bytes[0] !== ED25519_FLAG || address !== normalizeSuiAddress(address)) return "ask_sdk"
  const publicKey = bytes.subarray(1 + SIGNATURE_LENGTH)
  // The SDK refuses a key that is not the address's whatever the signature; so does this, before any curve arithmetic.
  if (ed25519Address(publicKey) !== address) return "invalid"
  const digest = blake2b(messageWithIntent(scope, message), { dkLen: 32 })
  return nativeVerify(digest, bytes.subarray(1, 1 + SIGNATURE_LENGTH), publicKey) ? "valid" : "ask_sdk"
}

/** Whether `signature` (serialized, base64) is `address`'s valid signature of the transaction, as `verifyTransactionSignature` decides. */
export const transactionSignedBy = async (txBytes: Uint8Array, signature: string, address: string): Promise<boolean> => {
  const verdict = nativeEd25519("TransactionData", txBytes, signature, address)
  if (verdict !== "ask_sdk") return verdict === "valid"
  return verifyTransactionSignature(txBytes, signature, { address }).then(() => true, () => false)
}

/**
 * Whether `signature` is `address`'s signature of the personal message, as
 * `isValidPersonalMessageSignature` decides; like it, this rejects when a
 * scheme cannot be checked at all (a zkLogin signature without a client).
 */
export const personalMessageSignedBy = async (message: Uint8Array, signature: string, address: string): Promise<boolean> => {
  // Sui signs a personal message as its BCS `vector<u8>` under the PersonalMessage intent.
  const verdict = nativeEd25519("PersonalMessage", bcs.byteVector().serialize(message).toBytes(), signature, address)
  if (verdict !== "ask_sdk") return verdict === "valid"
  return isValidPersonalMessageSignature(message, signature, { address })
}
