import { ed25519 } from "@noble/curves/ed25519.js"

const SIGNATURE_LENGTH = 64
const PUBLIC_KEY_LENGTH = 32

/**
 * Sui's `sui::ed25519::ed25519_verify`: fastcrypto verifies under ZIP 215
 * (ed25519-consensus), as noble does by default. A key or signature of the
 * wrong length, or bytes that are no point, make it false, never an abort.
 */
export const ed25519Verify = (signature: Uint8Array, publicKey: Uint8Array, message: Uint8Array): boolean => {
  if (signature.length !== SIGNATURE_LENGTH || publicKey.length !== PUBLIC_KEY_LENGTH) return false
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: true })
  } catch {
    return false
  }
}
