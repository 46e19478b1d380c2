import { createHmac } from "node:crypto"
import type { PaymentRequired } from "@x402/core/types"
import { Challenge } from "mppx"
import { Option } from "effect"
import {
  base64Text,
  decodeMppSignedCredential,
  decodeMppSuiCredential,
  decodeX402ExactPayment,
  decodeX402SuiPayment,
  type MppSuiCredential,
  type ProofBinding
} from "@gateway/domain/payment/PaymentCredential"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import { decodeSuiChargeRequest, suiChargeRequest } from "@gateway/domain/payment/SuiChargeRequest"
import { type ChallengeTerms, suiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"

/**
 * The secret mppx binds an MPP challenge's `id` with (HMAC-SHA256 over realm,
 * method, intent, request, expires…), derived from the gateway's challenge key
 * so that neither secret reveals the other.
 */
export const mppSecretOf = (challengeKey: Uint8Array) => createHmac("sha256", challengeKey).update("mpp-challenge-id:v1").digest("base64url")

/**
 * The `request` of the MPP challenge for the same terms as the x402 offer:
 * `method="sui"`, `intent="charge"`, the Sui terms in `methodDetails`, as the
 * JCS (RFC 8785) canonical JSON mppx signs. The request holds only strings, so
 * JCS is `JSON.stringify` with the keys in sorted order.
 */
export const mppRequest = (t: ChallengeTerms) => {
  const r = suiChargeRequest(suiDelegateOffer(t))
  const d = r.methodDetails
  return JSON.stringify({
    amount: r.amount,
    currency: r.currency,
    methodDetails: {
      assetTransferMethod: d.assetTransferMethod,
      method: d.method,
      network: d.network,
      nonce: d.nonce,
      packageId: d.packageId,
      path: d.path,
      publishedAt: d.publishedAt,
      rail: d.rail,
      resourceUrl: d.resourceUrl,
      serviceId: d.serviceId
    },
    recipient: r.recipient
  })
}

/**
 * The MPP `WWW-Authenticate: Payment` challenge of a canonical request (see
 * `mppRequest`), the id bound to all of it by mppx's HMAC. Byte for byte what
 * mppx's `Challenge.serialize(Challenge.from({ secretKey, … }))` makes (a test
 * holds them equal), minted natively: mppx canonicalizes the request three
 * times and hashes in JavaScript, ten times the cost of the rest of a 402.
 * Every value is a URL host, an id, a URL, a coin type or an ISO date: no
 * auth-param needs escaping. Credentials are checked with mppx's own `Challenge.verify`.
 */
export const mppChallengeOf = (canonicalRequest: string, expires: string, realm: string, secretKey: string, intent: MppIntent = "charge") => {
  const request = Buffer.from(canonicalRequest, "utf8").toString("base64url")
  // mppx's id binding: realm|method|intent|request|expires|digest|opaque, HMAC-SHA256 under the UTF-8 secret.
  const id = createHmac("sha256", secretKey).update(`${realm}|sui|${intent}|${request}|${expires}||`).digest("base64url")
  return `Payment id="${id}", realm="${realm}", method="sui", intent="${intent}", request="${request}", expires="${expires}"`
}

/** MPP's intents this gateway challenges with: `charge` (one payment per call) and `session` (vouchers against a deposit). */
export type MppIntent = "charge" | "session"

/** Both MPP challenges of one 402, in one `WWW-Authenticate` value: `charge` first, then `session` for the same terms. */
export const mppChallengesOf = (canonicalRequest: string, expires: string, realm: string, secretKey: string) =>
  `${mppChallengeOf(canonicalRequest, expires, realm, secretKey)}, ${mppChallengeOf(canonicalRequest, expires, realm, secretKey, "session")}`

/** The MPP challenge for these terms. */
export const mppChallenge = (t: ChallengeTerms, realm: string, secretKey: string) =>
  mppChallengeOf(mppRequest(t), t.expiresAt.toISOString(), realm, secretKey)

/**
 * x402's `PAYMENT-REQUIRED` header: base64 of the UTF-8 JSON, the bytes
 * `encodePaymentRequiredHeader` makes (a test holds them equal). That encoder
 * builds its base64 a byte at a time in JavaScript, a twentieth of minting a
 * 402; Buffer does it natively.
 */
const requiredHeaderOf = (requiredJson: string) => Buffer.from(requiredJson, "utf8").toString("base64")

export const paymentRequiredHeader = (required: PaymentRequired) => requiredHeaderOf(JSON.stringify(required))

/** The headers a 402 carries beside its content type and length (a type, not an interface, so it passes as a header record). */
export type ChallengeHeaders = {
  readonly "payment-required": string
  readonly "www-authenticate": string
  readonly "cache-control": string
}

/**
 * The headers of a challenge from its texts: the `PaymentRequired` JSON and the MPP request's canonical JSON.
 * A challenge is minted per request with its own nonce and expiry: no cache may keep or share it.
 */
export const challengeHeadersOf = (
  texts: { readonly required: string; readonly request: string },
  expires: string,
  realm: string,
  mppSecret: string
): ChallengeHeaders => ({
  "payment-required": requiredHeaderOf(texts.required),
  "www-authenticate": mppChallengesOf(texts.request, expires, realm, mppSecret),
  "cache-control": "no-store"
})

/** The headers of a challenge for these terms. */
export const challengeHeaders = (t: ChallengeTerms, realm: string, error: string, mppSecret: string, gasStation?: string, sessionOperator?: string) =>
  challengeHeadersOf(
    { required: JSON.stringify(paymentRequired(t, error, gasStation, true, sessionOperator)), request: mppRequest(t) },
    t.expiresAt.toISOString(),
    realm,
    mppSecret
  )

/**
 * What an agent presents after paying: which challenge, the transaction that
 * paid it, and the payer's proof of possession (a Sui personal-message
 * signature, see @gateway/domain/PaymentProof) with what it binds, when it sent one.
 */
export interface PaymentCredential {
  readonly nonce: string
  readonly digest: string
  readonly proof: string | undefined
  readonly binding: ProofBinding
}

/**
 * The nonce of an MPP credential whose echoed challenge is one this gateway
 * issued: its id must be mppx's HMAC of the echoed fields under our secret,
 * so no field (amount, recipient, nonce, expiry) can have been altered.
 */
export const issuedRequest = (credential: { readonly challenge: Omit<MppSuiCredential["challenge"], "intent"> & { readonly intent: MppIntent } }, secretKey: string) => {
  const { challenge } = credential
  const json = base64Text(challenge.request)
  if (json === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return undefined
  }
  const request = decodeSuiChargeRequest(parsed)
  if (Option.isNone(request)) return undefined
  const echoed = {
    id: challenge.id,
    realm: challenge.realm,
    method: challenge.method,
    intent: challenge.intent,
    request: request.value,
    ...(challenge.expires === undefined ? {} : { expires: challenge.expires }),
    ...(challenge.digest === undefined ? {} : { digest: challenge.digest }),
    ...(challenge.opaque === undefined ? {} : { opaque: challenge.opaque })
  }
  return Challenge.verify(echoed, { secretKey }) ? request.value : undefined
}

const issuedNonce = (credential: Pick<MppSuiCredential, "challenge">, secretKey: string): string | undefined =>
  issuedRequest(credential, secretKey)?.methodDetails.nonce

/**
 * Reads the credential from `PAYMENT-SIGNATURE` (x402) or
 * `Authorization: Payment …` (MPP) by decoding them with their schemas
 * (@gateway/domain/payment/PaymentCredential); undefined when there is none,
 * it does not decode, or an MPP credential echoes a challenge we did not issue.
 */
export const readCredential = (headers: Readonly<Record<string, string | undefined>>, mppSecret: string): PaymentCredential | undefined => {
  const x402 = headers["payment-signature"]
  if (x402 !== undefined) {
    return Option.getOrUndefined(Option.map(decodeX402SuiPayment(x402), (p) => ({
      nonce: p.accepted.extra.nonce,
      digest: p.payload.digest,
      proof: p.payload.proof,
      binding: p.payload.binding ?? "request"
    })))
  }
  const authorization = headers["authorization"]
  if (authorization === undefined) return undefined
  const mpp = decodeMppSuiCredential(authorization)
  if (Option.isNone(mpp)) return undefined
  const nonce = issuedNonce(mpp.value, mppSecret)
  return nonce === undefined ? undefined : {
    nonce,
    digest: mpp.value.payload.digest,
    proof: mpp.value.payload.proof,
    binding: mpp.value.payload.binding ?? "request"
  }
}

/**
 * A sign-first payment as presented: the challenge it answers, the signed transaction and the payer's signature
 * (base64, as sent), and for x402 the terms the payload echoes (MPP's are bound by the challenge id instead).
 */
export interface SignedCredential {
  readonly nonce: string
  readonly transaction: string
  readonly signature: string
  readonly echoed: { readonly network: string; readonly amount: string; readonly asset: string; readonly payTo: string } | undefined
}

/**
 * Reads a sign-first credential: x402 `PAYMENT-SIGNATURE` of scheme `exact`, or an MPP credential whose payload is
 * `{ transaction, signature }` for a challenge this gateway issued; undefined when there is none.
 */
export const readSignedCredential = (headers: Readonly<Record<string, string | undefined>>, mppSecret: string): SignedCredential | undefined => {
  const x402 = headers["payment-signature"]
  if (x402 !== undefined) {
    return Option.getOrUndefined(Option.map(decodeX402ExactPayment(x402), (p) => ({
      nonce: p.accepted.extra.nonce,
      transaction: p.payload.transaction,
      signature: p.payload.signature,
      echoed: { network: p.accepted.network, amount: p.accepted.amount, asset: p.accepted.asset, payTo: p.accepted.payTo }
    })))
  }
  const authorization = headers["authorization"]
  if (authorization === undefined) return undefined
  const mpp = decodeMppSignedCredential(authorization)
  if (Option.isNone(mpp)) return undefined
  const nonce = issuedNonce(mpp.value, mppSecret)
  return nonce === undefined ? undefined : { nonce, transaction: mpp.value.payload.transaction, signature: mpp.value.payload.signature, echoed: undefined }
}
