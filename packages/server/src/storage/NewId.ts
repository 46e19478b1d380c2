import { randomBytes } from "node:crypto"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

/** `<prefix>_` and 26 Crockford base32 characters of 128 random bits: unguessable, URL-safe. */
export const newId = (prefix: string): string => {
  const bytes = randomBytes(17)
  let out = ""
  for (let i = 0; i < 26; i++) {
    const bit = i * 5
    const byte = bit >> 3
    const word = ((bytes[byte] ?? 0) << 8) | (bytes[byte + 1] ?? 0)
    out += ALPHABET[(word >> (11 - (bit & 7))) & 31]
  }
  return `${prefix}_${out}`
}
