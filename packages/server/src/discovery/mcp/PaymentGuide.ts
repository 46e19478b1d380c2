import { Effect, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { target } from "@gateway/domain/chain/SpendAccountModule"
import { PROOF_VERSION } from "@gateway/domain/PaymentProof"
import { AppConfig } from "../../Config.ts"
import { PublicUrl } from "../../http/PublicUrl.ts"

/** The paid-call protocol in brief (docs/paid-calls.md is the full text), as the `how_to_pay` tool returns it. */
export const PaymentGuideSchema = Schema.Struct({
  network: Schema.String,
  rail: Schema.Literal("delegate"),
  challenge: Schema.String,
  pay: Schema.Struct({
    target: Schema.String,
    typeArgument: Schema.String,
    arguments: Schema.Array(Schema.String),
    memo: Schema.String,
    signer: Schema.String
  }),
  proof: Schema.Struct({
    signature: Schema.String,
    signedText: Schema.Array(Schema.String),
    rules: Schema.String
  }),
  credential: Schema.Struct({ x402: Schema.String, mpp: Schema.String }),
  answers: Schema.Array(Schema.String),
  documentation: Schema.Array(Schema.String)
})
export type PaymentGuide = typeof PaymentGuideSchema.Type

/** The guide for this gateway: its network and the package its `pay` call lives in. */
export const paymentGuide: Effect.Effect<PaymentGuide, never, Chain | AppConfig | PublicUrl> = Effect.gen(function*() {
  const { network } = yield* Chain
  const { spendAccountPackage } = yield* AppConfig
  const { origin } = yield* PublicUrl
  return {
    network,
    rail: "delegate",
    challenge:
      "Call the service's resourceUrl with its method and no credential. The answer is 402 with an x402 v2 PAYMENT-REQUIRED header (the same JSON as body) and a WWW-Authenticate: Payment header. The terms' extra carries nonce (single use, valid until expiresAt), serviceId, method, path, packageId and publishedAt. Check amount, payTo and asset against get_service_terms and your owner's policy before paying.",
    pay: {
      target: target(spendAccountPackage, "pay"),
      typeArgument: "the service's asset (its coin type)",
      // In the order of `Functions.pay` (SpendAccountModule).
      arguments: [
        "grant: your Grant (shared object, mutable)",
        "pool: the Pool it spends from (shared object, mutable)",
        "amount: u64, the challenge's amount (the service's price)",
        "recipient: address, the challenge's payTo",
        "memo: vector<u8>, the challenge nonce",
        "clock: the Clock, 0x6"
      ],
      memo: "the UTF-8 bytes of the challenge nonce",
      signer: "your own delegate key, on your own machine; never send a private key anywhere"
    },
    proof: {
      signature: "a Sui personal-message signature (base64, as signPersonalMessage makes it) by the grant's delegate over the text below",
      signedText: [
        PROOF_VERSION,
        "nonce:<the challenge nonce>",
        "digest:<the paying transaction's digest>",
        "method:<the HTTP method, upper case>",
        "url:<the challenge's resource.url, then the request's query string (?…) if any>",
        "body-sha256:<lower-case hex SHA-256 of the request body; of no bytes for GET and HEAD>"
      ],
      rules: "UTF-8, lines joined by a single \\n, no trailing newline; no field may hold a line break or surrounding spaces"
    },
    credential: {
      x402: "PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the terms>, payload: { digest, proof } })",
      mpp: "Authorization: Payment base64url(JSON { challenge: { id: <nonce> }, payload: { digest, proof } })"
    },
    answers: [
      "Paid and proven: the seller's answer, with PAYMENT-RESPONSE and Payment-Receipt headers",
      "409 NOT_FINAL: the payment is not checkpointed yet; present the same credential again shortly",
      "503 UNAVAILABLE (upstream_…_retry_with_the_same_credential): the payment is kept; present the same credential again",
      "402 payment_proof_invalid: the proof is missing, malformed, by another key or for another request; nothing is forwarded and the payment stays yours to present again with a valid proof",
      "Never pay one challenge twice; a repeated credential gets the kept answer"
    ],
    documentation: [`${origin}/SKILL.md`, `${origin}/llms.txt`, `${origin}/openapi.json`]
  }
})
