import { fromBase64 } from "@mysten/sui/utils"

/**
 * The SDK's `fromBase64` (its `atob`), natively: every request, transaction
 * and event passes through it, and the SDK's decodes a character at a time.
 * Node's decoder skips what is not base64, so its answer is taken only when
 * encoding it back gives the text again (padded, standard alphabet, nothing
 * skipped); anything else goes to the SDK's, which accepts or refuses it as
 * before. Always a plain `Uint8Array` of its own, never a pooled Buffer.
 */
export const decodeBase64 = (text: string): Uint8Array => {
  const decoded = Buffer.from(text, "base64")
  return decoded.toString("base64") === text ? new Uint8Array(decoded) : fromBase64(text)
}

/** The SDK's `toBase64`, natively: the same padded standard alphabet. */
export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")
