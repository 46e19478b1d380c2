import { Schema, SchemaTransformation } from "effect"

/**
 * A field's description as `/openapi.json` shows it, set as the key annotation: a branded or filtered schema's own
 * description is not carried into the JSON Schema, the key's always is.
 */
export const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotateKey({ description })

/** `described` with one example value, on the key for the same reason. */
export const documented = <S extends Schema.Top>(schema: S, description: string, example: S["Type"]) =>
  schema.annotateKey({ description, examples: [example] })

/**
 * A number sent as a string (a query parameter), decoded into `to`, with its description and example on the string:
 * a parameter's JSON Schema is the encoded side's, which neither the decoded side's nor the key's annotations reach.
 */
export const documentedNumberFromString = (to: Schema.Codec<number>, description: string, example: number) =>
  Schema.String.annotate({ expected: "a string that will be decoded as a number", description, examples: [String(example)] })
    .pipe(Schema.decodeTo(to, SchemaTransformation.numberFromString))

/** Example values many fields share, so the documents show one consistent set. */
export const Example = {
  /** An instant as the gateway writes one (`Date.prototype.toISOString`). */
  isoTime: "2026-01-15T09:30:00.000Z",
  /** A Sui transaction digest (base58). */
  digest: "8Z4VsS7HHT5JvSZf1oN8kXhVDfWgfjGzTjmwj3GQvRzB",
  /** Base64 BCS bytes (of a TransactionKind or TransactionData): shortened, real ones run to hundreds of characters. */
  base64: "AAACAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQ==",
  /** A raw Ed25519 signature (64 bytes), base64, as vouchers carry one. */
  ed25519Signature: "8mRCAcvhN6jEibb6SPzMtghgXR/86JMw7ZeGXxejOJm5FvzqXA6tsqGcZ54kGjHhx7ePLesHj0+8dFlD998+5A==",
  /** A wallet's serialized Sui signature (flag, Ed25519 signature, public key: 97 bytes), base64. */
  walletSignature: "AP2QswcEGmD1tJz4zphpPGEE1HvZbjR5tQeUu2my7/+xbo4EmJJkbI3QVPREHP2c9aPWIMGUaGHvBdMMaYyV5H0nlBw4036DFVXhPUSR9gtLnvEdzery9WqYj+K+e6yZmw==",
  /** A Move call target, `<package>::spend_account::<function>`. */
  moveTarget: "0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d::spend_account::create_policy_grant"
} as const
