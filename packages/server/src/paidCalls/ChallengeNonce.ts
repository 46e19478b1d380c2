import { createHmac, randomUUID } from "node:crypto"
import type { ChallengeClaims } from "@gateway/domain/payment/PaidCallDecision"
import { sameSecret } from "../secrets/SameSecret.ts"

const MAC_BYTES = 16

const macOf = (key: Uint8Array, body: string) => createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES)

/**
 * A 402 challenge's nonce carries its own terms: the service, the revision
 * whose price, asset and recipient it asks for (an activated revision never
 * changes), the expiry and 122 random bits, sealed with an HMAC under the
 * gateway's challenge key. Minting writes nothing, so unpaid requests cannot
 * fill the store. A nonce is a price quote, not a ticket: each distinct payment
 * carrying it (until it expires) is stored under its digest and served once.
 *
 * Layout: `<serviceId>.<revision>.<expiresAtMs>.<random>.<mac>`, all
 * characters a memo, a header value and a URL carry unescaped.
 */
export const mintNonce = (key: Uint8Array, claims: ChallengeClaims): string => {
  // A v4 UUID's 122 random bits: Node draws them from a cached entropy pool, not a syscall per 402.
  const body = `${claims.serviceId}.${claims.revision}.${claims.expiresAtMs}.${randomUUID().replaceAll("-", "")}`
  return `${body}.${macOf(key, body).toString("base64url")}`
}

/** The claims of a nonce this key minted, or undefined for anything else (forged, altered, malformed). */
export const openNonce = (key: Uint8Array, nonce: string): ChallengeClaims | undefined => {
  const parts = nonce.split(".")
  if (parts.length !== 5) return undefined
  const [serviceId, revision, expiresAtMs, random, mac] = parts
  if (serviceId === undefined || revision === undefined || expiresAtMs === undefined || random === undefined || mac === undefined) return undefined
  if (!/^[1-9][0-9]{0,8}$/.test(revision) || !/^[1-9][0-9]{0,15}$/.test(expiresAtMs)) return undefined
  // Compared as text: base64url decoding ignores a final character's spare bits, so bytes would accept variants.
  if (!sameSecret(mac, macOf(key, `${serviceId}.${revision}.${expiresAtMs}.${random}`).toString("base64url"))) return undefined
  return { serviceId, revision: Number(revision), expiresAtMs: Number(expiresAtMs) }
}
