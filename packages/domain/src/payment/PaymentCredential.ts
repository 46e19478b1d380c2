import { fromBase64 } from "@mysten/sui/utils"
import { Option, Schema } from "effect"
import { EXACT_SCHEME } from "./ExactOffer.ts"
import { ChallengeNonce, SUI_DELEGATE_SCHEME, TransactionDigest } from "./SuiDelegateOffer.ts"

/**
 * What a payer presents after paying (docs/paid-calls.md §4), in either
 * dialect: the digest of the transaction that paid, and its proof of
 * possession. `binding` says what the proof signs (../PaymentProof.ts):
 * `request` (the default) this very request, body included; `challenge` the
 * request the challenge describes, for clients that never see the body.
 */
export const ProofBinding = Schema.Literals(["request", "challenge"])
export type ProofBinding = typeof ProofBinding.Type

export const SuiPaymentPayload = Schema.Struct({
  digest: TransactionDigest,
  /** The delegate's Sui personal-message signature, base64; absent or wrong gets `payment_proof_invalid`. */
  proof: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(4096)))),
  binding: Schema.optionalKey(ProofBinding)
})
export type SuiPaymentPayload = typeof SuiPaymentPayload.Type

/** x402's `PAYMENT-SIGNATURE` payload, as far as the gateway reads it: the echoed offer's nonce, and ours. */
export const X402SuiPayment = Schema.Struct({
  x402Version: Schema.Literal(2),
  accepted: Schema.Struct({
    scheme: Schema.Literal(SUI_DELEGATE_SCHEME),
    extra: Schema.Struct({ nonce: ChallengeNonce })
  }),
  payload: SuiPaymentPayload
})
export type X402SuiPayment = typeof X402SuiPayment.Type

/**
 * MPP's credential (`Authorization: Payment <base64url JSON>`): the whole
 * challenge echoed, its `request` still in its wire form (base64url JCS) so
 * the gateway can check it is the one it issued, and the payload.
 */
export const MppSuiCredential = Schema.Struct({
  challenge: Schema.Struct({
    id: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
    realm: Schema.String,
    method: Schema.Literal("sui"),
    intent: Schema.Literal("charge"),
    request: Schema.String.pipe(Schema.check(Schema.isMaxLength(16 * 1024))),
    expires: Schema.optionalKey(Schema.String),
    description: Schema.optionalKey(Schema.String),
    digest: Schema.optionalKey(Schema.String),
    opaque: Schema.optionalKey(Schema.String)
  }),
  payload: SuiPaymentPayload,
  source: Schema.optionalKey(Schema.String)
})
export type MppSuiCredential = typeof MppSuiCredential.Type

const Base64Text = (maxLength: number) =>
  Schema.String.pipe(Schema.check(Schema.isMaxLength(maxLength), Schema.isPattern(/^[A-Za-z0-9+/]+={0,2}$/u, { expected: "base64" })))

/**
 * A sign-first payment (x402 `exact` on Sui): the payer's signature over a whole transaction it did not execute,
 * and the transaction's BCS bytes, both base64, as the scheme document names them.
 */
export const SignedPaymentPayload = Schema.Struct({
  signature: Base64Text(4096),
  transaction: Base64Text(64 * 1024)
})
export type SignedPaymentPayload = typeof SignedPaymentPayload.Type

/** x402's `PAYMENT-SIGNATURE` of an `exact` payment: the echoed offer's terms and nonce, and the signed transaction. */
export const X402ExactPayment = Schema.Struct({
  x402Version: Schema.Literal(2),
  accepted: Schema.Struct({
    scheme: Schema.Literal(EXACT_SCHEME),
    network: Schema.String,
    amount: Schema.String,
    asset: Schema.String,
    payTo: Schema.String,
    extra: Schema.Struct({ nonce: ChallengeNonce })
  }),
  payload: SignedPaymentPayload
})
export type X402ExactPayment = typeof X402ExactPayment.Type

/** MPP's credential for the same `sui`/`charge` challenge, its payload the signed transaction instead of a digest. */
export const MppSignedCredential = Schema.Struct({
  challenge: MppSuiCredential.fields.challenge,
  payload: SignedPaymentPayload,
  source: Schema.optionalKey(Schema.String)
})
export type MppSignedCredential = typeof MppSignedCredential.Type

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The text of base64 or base64url, or undefined when it is neither or not UTF-8. */
export const base64Text = (encoded: string): string | undefined => {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(encoded)) return undefined
  const standard = encoded.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "")
  try {
    return utf8.decode(fromBase64(standard.padEnd(Math.ceil(standard.length / 4) * 4, "=")))
  } catch {
    return undefined
  }
}

const decodeX402Json = Schema.decodeUnknownOption(Schema.fromJsonString(X402SuiPayment))
const decodeMppJson = Schema.decodeUnknownOption(Schema.fromJsonString(MppSuiCredential))
const decodeX402ExactJson = Schema.decodeUnknownOption(Schema.fromJsonString(X402ExactPayment))
const decodeMppSignedJson = Schema.decodeUnknownOption(Schema.fromJsonString(MppSignedCredential))

/** `PAYMENT-SIGNATURE`'s value, decoded; None when it is not a `sui-delegate` payment. */
export const decodeX402SuiPayment = (header: string): Option.Option<X402SuiPayment> => {
  const json = base64Text(header.trim())
  return json === undefined ? Option.none() : decodeX402Json(json)
}

/** The credential of an `Authorization` value; None when it is not `Payment` or not an MPP Sui credential. */
export const decodeMppSuiCredential = (authorization: string): Option.Option<MppSuiCredential> => {
  const json = base64Text(/^Payment\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "!")
  return json === undefined ? Option.none() : decodeMppJson(json)
}

/** `PAYMENT-SIGNATURE`'s value, decoded; None when it is not an `exact` payment. */
export const decodeX402ExactPayment = (header: string): Option.Option<X402ExactPayment> => {
  const json = base64Text(header.trim())
  return json === undefined ? Option.none() : decodeX402ExactJson(json)
}

/** The credential of an `Authorization` value; None when it is not `Payment` or not a signed MPP Sui credential. */
export const decodeMppSignedCredential = (authorization: string): Option.Option<MppSignedCredential> => {
  const json = base64Text(/^Payment\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "!")
  return json === undefined ? Option.none() : decodeMppSignedJson(json)
}
