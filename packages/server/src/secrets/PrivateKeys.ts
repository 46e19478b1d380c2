/**
 * Values shaped like a private key, which no request to the gateway ever
 * needs: the gateway holds no keys, so one in a body is a mistake to stop
 * before it is stored or logged. Recognised: Sui's bech32 export
 * (`suiprivkey1…`) anywhere in any string; and, in a field whose name says
 * (private) key, secret, seed, mnemonic or private, raw key bytes (32, 33 with Sui's
 * scheme flag, or 64) as hex or base64, or a BIP-39 phrase of 12 to 24 words.
 */
const BECH32_KEY = /suiprivkey1[02-9ac-hj-np-z]{20,}/i

/** Names that say "key" about a private one; an idempotency key or a public key is not. */
const KEY_NAME = /secret|seed|mnemonic|priv|(?<!idempotency|public)key/i

const HEX_KEY = /^(?:0x)?(?:[0-9a-f]{64}|[0-9a-f]{128})$/i

const BASE64 = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/

const KEY_BYTES = new Set([32, 33, 64])

const PHRASE_WORDS = new Set([12, 15, 18, 21, 24])

const base64Key = (text: string) => {
  if (!BASE64.test(text)) return false
  const digits = text.replace(/=+$/, "").length
  const bytes = Math.floor((digits * 3) / 4)
  return KEY_BYTES.has(bytes) && digits === Math.ceil((bytes * 4) / 3)
}

const phrase = (text: string) => {
  const words = text.trim().split(/\s+/)
  return PHRASE_WORDS.has(words.length) && words.every((word) => /^[a-z]{3,8}$/.test(word))
}

const keyShaped = (text: string, name: string) =>
  BECH32_KEY.test(text) || (KEY_NAME.test(name) && (HEX_KEY.test(text) || base64Key(text) || phrase(text)))

/**
 * The path (`body.a.0.b`) of the first value in a parsed JSON document that
 * looks like a private key, or undefined. Array items are judged by the name
 * of the field holding the array. The value itself is never returned.
 */
export const privateKeyPath = (value: unknown, path: string, name = ""): string | undefined => {
  if (typeof value === "string") return keyShaped(value, name) ? path : undefined
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = privateKeyPath(item, `${path}.${i}`, name)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = privateKeyPath(item, `${path}.${key}`, key)
      if (found !== undefined) return found
    }
  }
  return undefined
}
