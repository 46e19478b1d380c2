import { Option, Result, Schema, SchemaIssue, SchemaParser } from "effect"
import { EXACT_SCHEME } from "@gateway/domain/payment/ExactOffer"
import { base64Text, MppSignedCredential, MppSuiCredential, X402ExactPayment, X402SuiPayment } from "@gateway/domain/payment/PaymentCredential"
import { MppSessionCredential, X402SessionPayment } from "@gateway/domain/payment/SessionCredential"
import { SESSION_SCHEME } from "@gateway/domain/payment/SessionOffer"
import { SUI_DELEGATE_SCHEME } from "@gateway/domain/payment/SuiDelegateOffer"

/**
 * Why a payment header that no reader accepted is malformed, so the payer is told which part to fix instead of
 * getting a fresh 402 and paying again (the payment it made, if any, is still presentable). A header that decodes
 * as a credential of a scheme this gateway knows is never malformed: whether it is valid (an MPP challenge we did
 * not issue, a spent nonce) is the presenters' to judge, as before.
 */
export interface Malformed {
  /** `payment_signature_…` or `authorization_payment_…`, then what is wrong. */
  readonly reason: string
  readonly message: string
}

const X402_SCHEMAS = {
  [SUI_DELEGATE_SCHEME]: X402SuiPayment,
  [EXACT_SCHEME]: X402ExactPayment,
  [SESSION_SCHEME]: X402SessionPayment
} as const

const MPP_SCHEMAS = [MppSuiCredential, MppSignedCredential, MppSessionCredential] as const

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first failing path and what it expects, never the value sent (it may carry a signature). */
const firstIssue = (schema: Schema.ConstraintDecoder<unknown>, value: unknown): string | undefined => {
  const result = SchemaParser.decodeUnknownResult(schema)(value)
  if (Result.isSuccess(result)) return undefined
  const [first] = formatter(result.failure).issues
  const path = (first?.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key))).join(".")
  return `${path === "" ? "(root)" : path}: ${first?.message ?? "invalid"}`
}

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

const schemeOf = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "accepted" in value && typeof value.accepted === "object" && value.accepted !== null &&
    "scheme" in value.accepted
    ? value.accepted.scheme
    : undefined

const KNOWN_X402 = Object.keys(X402_SCHEMAS).join(", ")

/** `PAYMENT-SIGNATURE`: base64 of UTF-8 JSON that is an x402 v2 payload of one of our schemes. */
const malformedX402 = (header: string): Malformed | undefined => {
  const json = base64Text(header.trim())
  if (json === undefined) {
    return { reason: "payment_signature_not_base64", message: "PAYMENT-SIGNATURE is not base64 of UTF-8 text: send base64(JSON of the x402 payment payload)" }
  }
  const parsed = parseJson(json)
  if (Option.isNone(parsed)) {
    return { reason: "payment_signature_not_json", message: "PAYMENT-SIGNATURE decodes from base64 but is not JSON: send base64(JSON of the x402 payment payload)" }
  }
  const scheme = schemeOf(parsed.value)
  const schema = scheme === SUI_DELEGATE_SCHEME || scheme === EXACT_SCHEME || scheme === SESSION_SCHEME ? X402_SCHEMAS[scheme] : undefined
  if (schema === undefined) {
    return {
      reason: "payment_signature_unknown_scheme",
      message: `PAYMENT-SIGNATURE is JSON but accepted.scheme is none this gateway takes (${KNOWN_X402}): echo one of the 402's accepts entries`
    }
  }
  const issue = firstIssue(schema, parsed.value)
  return issue === undefined ? undefined : {
    reason: `payment_signature_invalid_payload: ${issue}`,
    message: `PAYMENT-SIGNATURE is a ${String(scheme)} payment with a malformed field (${issue.slice(0, issue.indexOf(":"))}); fix it and present the same payment again`
  }
}

/** `Authorization: Payment <base64url JSON>`: an MPP credential of ours. Any other scheme is not ours to judge. */
const malformedMpp = (authorization: string): Malformed | undefined => {
  const match = /^Payment(?:\s+(.*))?$/is.exec(authorization.trim())
  if (match === null) return undefined
  const token = (match[1] ?? "").trim()
  const json = /^\S+$/.test(token) ? base64Text(token) : undefined
  if (json === undefined) {
    return { reason: "authorization_payment_not_base64url", message: "Authorization: Payment must carry one base64url token of the MPP credential JSON" }
  }
  const parsed = parseJson(json)
  if (Option.isNone(parsed)) {
    return { reason: "authorization_payment_not_json", message: "Authorization: Payment's token decodes from base64url but is not JSON: send the MPP credential JSON" }
  }
  const issues = MPP_SCHEMAS.map((schema) => firstIssue(schema, parsed.value))
  if (issues.some((issue) => issue === undefined)) return undefined
  const [first = "invalid"] = issues
  return {
    reason: `authorization_payment_invalid_credential: ${first}`,
    message: `Authorization: Payment is JSON but no MPP credential this gateway takes (sui charge or session) with a malformed field (${first.slice(0, first.indexOf(":"))}); echo the 402's challenge with your payload`
  }
}

/** What is malformed in the payment headers no reader accepted, if anything; `PAYMENT-SIGNATURE` first, as the readers take it. */
export const malformedCredential = (headers: Readonly<Record<string, string | undefined>>): Malformed | undefined => {
  const x402 = headers["payment-signature"]
  if (x402 !== undefined) return malformedX402(x402)
  const authorization = headers["authorization"]
  return authorization === undefined ? undefined : malformedMpp(authorization)
}
