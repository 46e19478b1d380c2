import { toHex } from "@mysten/sui/utils"

/**
 * Proof of possession for a paid call (public protocol, docs/paid-calls.md).
 *
 * A payment's digest and its challenge nonce are public once on chain (the
 * nonce is the `memo` of `PaymentMade`), so presenting them proves nothing.
 * The credential therefore also carries the paying delegate's Sui
 * personal-message signature over this text, which binds the payment to one
 * request: its method, its URL and its body. UTF-8, lines joined by a single
 * `\n`, no trailing newline:
 *
 *     sui-gateway-payment-proof:v1
 *     nonce:<the challenge nonce>
 *     digest:<the paying transaction's digest>
 *     method:<the HTTP method, upper case>
 *     url:<the challenge's resource.url, then the request's query string if any>
 *     body-sha256:<lower-case hex SHA-256 of the request body; of no bytes for GET and HEAD>
 */
export interface ProofFields {
  readonly nonce: string
  readonly digest: string
  readonly method: string
  readonly url: string
  readonly bodySha256: string
}

export const PROOF_VERSION = "sui-gateway-payment-proof:v1"

/** No field may carry a line break (it would forge another line) or leading/trailing space (it would not survive a header). */
const wellFormed = (f: ProofFields) =>
  [f.nonce, f.digest, f.method, f.url, f.bodySha256].every((v) => v.length > 0 && !/[\r\n]/.test(v) && v.trim() === v) &&
  /^[A-Z]+$/.test(f.method) && /^[0-9a-f]{64}$/.test(f.bodySha256)

/** The text the delegate signs, or undefined for fields that cannot be laid out unambiguously. */
export const proofText = (f: ProofFields): string | undefined =>
  wellFormed(f)
    ? [PROOF_VERSION, `nonce:${f.nonce}`, `digest:${f.digest}`, `method:${f.method}`, `url:${f.url}`, `body-sha256:${f.bodySha256}`].join("\n")
    : undefined

/** The bytes a Sui personal-message signature covers, or undefined (see `proofText`). */
export const proofMessage = (f: ProofFields): Uint8Array | undefined => {
  const text = proofText(f)
  return text === undefined ? undefined : new TextEncoder().encode(text)
}

/** The URL a proof names: the resource URL and the request's query string as `URL.search` gives it (`?…`, or nothing). */
export const proofUrl = (resourceUrl: string, search: string): string => `${resourceUrl}${search}`

/**
 * The proof a client that never sees the request it pays for signs: x402's
 * `SchemeNetworkClient` and an mppx client method receive only the
 * challenge. It binds the payment to the request the challenge describes (its
 * declared method and resource URL), not to a query string or body. It has
 * its own first line, so neither kind of proof is ever read as the other.
 * Like the request proof, only the delegate that paid can make it: a chain
 * reader who knows the digest and the nonce still cannot redeem the payment.
 *
 *     sui-gateway-payment-proof:challenge:v1
 *     nonce:<the challenge nonce>
 *     digest:<the paying transaction's digest>
 *     method:<the challenge's declared method>
 *     url:<the challenge's resource.url>
 */
export interface ChallengeProofFields {
  readonly nonce: string
  readonly digest: string
  readonly method: string
  readonly url: string
}

export const CHALLENGE_PROOF_VERSION = "sui-gateway-payment-proof:challenge:v1"

export const challengeProofText = (f: ChallengeProofFields): string | undefined =>
  [f.nonce, f.digest, f.method, f.url].every((v) => v.length > 0 && !/[\r\n]/.test(v) && v.trim() === v) && /^[A-Z]+$/.test(f.method)
    ? [CHALLENGE_PROOF_VERSION, `nonce:${f.nonce}`, `digest:${f.digest}`, `method:${f.method}`, `url:${f.url}`].join("\n")
    : undefined

export const challengeProofMessage = (f: ChallengeProofFields): Uint8Array | undefined => {
  const text = challengeProofText(f)
  return text === undefined ? undefined : new TextEncoder().encode(text)
}

/** Lower-case hex SHA-256, through WebCrypto so browsers and Node agree. */
export const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>): Promise<string> =>
  toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
