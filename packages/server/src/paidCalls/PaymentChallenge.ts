import type { PaymentPayload, PaymentRequired } from "@x402/core/types"
import { decodePaymentSignatureHeader } from "@x402/core/http"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"

/** The payment terms both dialects carry for one challenge. */
export interface ChallengeTerms {
  readonly nonce: string
  readonly seconds: number
  readonly expiresAt: Date
  readonly entry: CatalogEntry
  readonly pkg: SpendAccountPackage
}

/** x402 names networks `<chain>:<network>`; catalog entries always do, and this proves it to the compiler. */
export const x402Network = (network: string): `${string}:${string}` => {
  const [chain, name] = network.split(":")
  if (chain === undefined || name === undefined) throw new Error(`not a <chain>:<network> name: ${network}`)
  return `${chain}:${name}`
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** The x402 (version 2) `PaymentRequired` for a challenge; `extra` names the delegate rail and the nonce to pay with. */
export const x402Required = (t: ChallengeTerms, error: string): PaymentRequired => ({
  x402Version: 2,
  error,
  resource: { url: t.entry.resourceUrl, description: t.entry.description, mimeType: t.entry.mimeType },
  accepts: [{
    scheme: "exact",
    network: x402Network(t.entry.network),
    amount: t.entry.price,
    asset: t.entry.asset,
    payTo: t.entry.payTo,
    maxTimeoutSeconds: t.seconds,
    extra: {
      nonce: t.nonce,
      rail: "delegate",
      serviceId: t.entry.id,
      method: t.entry.method,
      path: t.entry.path,
      /** Types and events are named under the original id; `pay` is called at the published-at id. */
      packageId: t.pkg.originalId,
      publishedAt: t.pkg.publishedAt,
      expiresAt: t.expiresAt.toISOString()
    }
  }]
})

/** The MPP `WWW-Authenticate: Payment` challenge for the same terms. */
export const mppChallenge = (t: ChallengeTerms, realm: string) =>
  [
    `id="${t.nonce}"`,
    `realm="${realm}"`,
    `method="sui"`,
    `intent="charge"`,
    `request="${base64url({ amount: t.entry.price, currency: t.entry.asset, recipient: t.entry.payTo, network: t.entry.network, rail: "delegate", serviceId: t.entry.id })}"`,
    `expires="${t.expiresAt.toISOString()}"`
  ].join(", ").replace(/^/, "Payment ")

/**
 * x402's `PAYMENT-REQUIRED` header: base64 of the UTF-8 JSON, the bytes
 * `encodePaymentRequiredHeader` makes (a test holds them equal). That encoder
 * builds its base64 a byte at a time in JavaScript, a twentieth of minting a
 * 402; Buffer does it natively.
 */
export const paymentRequiredHeader = (required: PaymentRequired) => Buffer.from(JSON.stringify(required), "utf8").toString("base64")

export const challengeHeaders = (t: ChallengeTerms, realm: string, error: string) => ({
  "payment-required": paymentRequiredHeader(x402Required(t, error)),
  "www-authenticate": mppChallenge(t, realm)
})

/**
 * What an agent presents after paying: which challenge, the transaction that
 * paid it, and the payer's proof of possession (a Sui personal-message
 * signature over the request, see @gateway/domain/PaymentProof), when it sent one.
 */
export interface PaymentCredential {
  readonly nonce: string
  readonly digest: string
  readonly proof: string | undefined
}

const credentialOf = (nonce: unknown, digest: unknown, proof: unknown): PaymentCredential | undefined =>
  typeof nonce === "string" && typeof digest === "string"
    ? { nonce, digest, proof: typeof proof === "string" ? proof : undefined }
    : undefined

const fromX402 = (payload: PaymentPayload): PaymentCredential | undefined =>
  credentialOf(payload.accepted.extra?.["nonce"], payload.payload["digest"], payload.payload["proof"])

/**
 * Reads the credential from `PAYMENT-SIGNATURE` (x402: `payload.digest`,
 * `payload.proof`) or `Authorization: Payment <base64url JSON>` (MPP:
 * `challenge.id`, `payload.digest`, `payload.proof`); undefined when there is
 * none or it cannot be read.
 */
export const readCredential = (headers: Readonly<Record<string, string | undefined>>): PaymentCredential | undefined => {
  try {
    const x402 = headers["payment-signature"]
    if (x402 !== undefined) return fromX402(decodePaymentSignatureHeader(x402))
    const authorization = headers["authorization"]
    if (authorization !== undefined && authorization.startsWith("Payment ")) {
      const parsed: unknown = JSON.parse(Buffer.from(authorization.slice("Payment ".length).trim(), "base64url").toString())
      if (typeof parsed !== "object" || parsed === null) return undefined
      const challenge = "challenge" in parsed && typeof parsed.challenge === "object" && parsed.challenge !== null ? parsed.challenge : {}
      const payload = "payload" in parsed && typeof parsed.payload === "object" && parsed.payload !== null ? parsed.payload : {}
      return credentialOf(
        "id" in challenge ? challenge.id : undefined,
        "digest" in payload ? payload.digest : undefined,
        "proof" in payload ? payload.proof : undefined
      )
    }
    return undefined
  } catch {
    return undefined
  }
}
