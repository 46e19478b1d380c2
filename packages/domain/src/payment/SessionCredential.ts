import { Option, Schema } from "effect"
import { AtomicAmount } from "../Amount.ts"
import { ObjectId } from "../SuiAddress.ts"
import { base64Text, MppSuiCredential } from "./PaymentCredential.ts"
import { SESSION_SCHEME } from "./SessionOffer.ts"

/** An Ed25519 signature: 64 bytes, base64 (88 characters with padding). */
const Ed25519SignatureBase64 = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[A-Za-z0-9+/]{86}==$/u, { expected: "a base64 Ed25519 signature (64 bytes)" }))
)

/** A voucher as presented: the session, the cumulative amount it lets the payee claim, and the session key's signature. */
export const SessionVoucherPayload = Schema.Struct({
  session: ObjectId,
  cumulativeAmount: AtomicAmount,
  signature: Ed25519SignatureBase64
})
export type SessionVoucherPayload = typeof SessionVoucherPayload.Type

/** x402's `PAYMENT-SIGNATURE` of a session payment: the echoed offer's scheme and service, and the voucher. */
export const X402SessionPayment = Schema.Struct({
  x402Version: Schema.Literal(2),
  accepted: Schema.Struct({
    scheme: Schema.Literal(SESSION_SCHEME),
    extra: Schema.Struct({ serviceId: Schema.String })
  }),
  payload: SessionVoucherPayload
})
export type X402SessionPayment = typeof X402SessionPayment.Type

/**
 * MPP's `session` intent credential (mppx's shape for its own session method: `action: "voucher"`, the channel
 * and the cumulative amount): our channel is the Sui `Session` object. Opening, topping up and closing happen on
 * chain through the grant, so `voucher` is the only action presented.
 */
export const MppSessionCredential = Schema.Struct({
  challenge: Schema.Struct({ ...MppSuiCredential.fields.challenge.fields, intent: Schema.Literal("session") }),
  payload: Schema.Struct({
    action: Schema.Literal("voucher"),
    channelId: ObjectId,
    cumulativeAmount: AtomicAmount,
    signature: Ed25519SignatureBase64
  }),
  source: Schema.optionalKey(Schema.String)
})
export type MppSessionCredential = typeof MppSessionCredential.Type

const decodeX402Json = Schema.decodeUnknownOption(Schema.fromJsonString(X402SessionPayment))
const decodeMppJson = Schema.decodeUnknownOption(Schema.fromJsonString(MppSessionCredential))

/** `PAYMENT-SIGNATURE`'s value, decoded; None when it is not a `sui-session` payment. */
export const decodeX402SessionPayment = (header: string): Option.Option<X402SessionPayment> => {
  const json = base64Text(header.trim())
  return json === undefined ? Option.none() : decodeX402Json(json)
}

/** The credential of an `Authorization` value; None when it is not `Payment` or not an MPP Sui session voucher. */
export const decodeMppSessionCredential = (authorization: string): Option.Option<MppSessionCredential> => {
  const json = base64Text(/^Payment\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "!")
  return json === undefined ? Option.none() : decodeMppJson(json)
}
