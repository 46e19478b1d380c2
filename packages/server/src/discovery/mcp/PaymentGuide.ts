import { Effect, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { target } from "@gateway/domain/chain/SpendAccountModule"
import { ASSET_TRANSFER_METHOD, SUI_DELEGATE_SCHEME } from "@gateway/domain/payment/SuiDelegateOffer"
import { CHALLENGE_PROOF_VERSION, PROOF_VERSION } from "@gateway/domain/PaymentProof"
import { AppConfig } from "../../Config.ts"
import { PublicUrl } from "../../httpShared/PublicUrl.ts"

/** The paid-call protocol in brief (docs/paid-calls.md is the full text), as the `how_to_pay` tool returns it. */
export const PaymentGuideSchema = Schema.Struct({
  network: Schema.String,
  rail: Schema.Literal("delegate"),
  x402Scheme: Schema.String,
  challenge: Schema.String,
  pay: Schema.Struct({
    target: Schema.String,
    typeArgument: Schema.String,
    arguments: Schema.Array(Schema.String),
    memo: Schema.String,
    signer: Schema.String,
    finality: Schema.String
  }),
  proof: Schema.Struct({
    signature: Schema.String,
    signedText: Schema.Array(Schema.String),
    challengeBoundText: Schema.Array(Schema.String),
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
    x402Scheme: `${SUI_DELEGATE_SCHEME} (extra.paymentFlow "upfront", extra.assetTransferMethod "${ASSET_TRANSFER_METHOD}"); the npm package @gateway/sui-pay implements it for @x402/fetch and mppx`,
    challenge:
      `Call the service's resourceUrl with its method and no credential. The answer is 402 (Cache-Control: no-store) with an x402 v2 PAYMENT-REQUIRED header (the same JSON as body) holding one offer of scheme ${SUI_DELEGATE_SCHEME}, and a WWW-Authenticate: Payment header (MPP: method="sui", intent="charge", the same terms in request.methodDetails). The offer's extra carries nonce (valid until expiresAt; each payment of it is served once), serviceId, method, path, resourceUrl, packageId (original id), publishedAt and expiresAt. Check amount, payTo and asset against get_service_terms and your owner's policy before paying.`,
    pay: {
      target: target(spendAccountPackage, "pay"),
      typeArgument: "T = the offer's asset (its coin type, e.g. 0x2::sui::SUI)",
      // In the order of `Functions.pay` (SpendAccountModule).
      arguments: [
        "registry: the package's Registry (shared object, immutable), the manifest's registryId: its package version gates every call",
        "grant: your Grant (shared object, mutable)",
        "pool: the Pool it spends from (shared object, mutable)",
        "amount: u64, exactly the offer's amount (the service's price); another amount does not pay the challenge and is not refunded",
        "recipient: address, the offer's payTo",
        "memo: vector<u8>, the UTF-8 bytes of the challenge nonce",
        "clock: the Clock, 0x6"
      ],
      memo: "the UTF-8 bytes of the challenge nonce",
      signer: "your own delegate key, on your own machine; never send a private key anywhere",
      finality: "a payment counts once its transaction is checkpointed; before that the gateway answers 409 NOT_FINAL and the same credential is presented again"
    },
    proof: {
      signature: "a Sui personal-message signature (base64, as signPersonalMessage makes it) by the grant's delegate over one of the texts below",
      signedText: [
        PROOF_VERSION,
        "nonce:<the challenge nonce>",
        "digest:<the paying transaction's digest>",
        "method:<the HTTP method, upper case>",
        "url:<the challenge's resource.url, then the request's query string (?…) if any>",
        "body-sha256:<lower-case hex SHA-256 of the request body; of no bytes for GET and HEAD>"
      ],
      challengeBoundText: [
        CHALLENGE_PROOF_VERSION,
        "nonce:<the challenge nonce>",
        "digest:<the paying transaction's digest>",
        "method:<the offer's extra.method>",
        "url:<the offer's extra.resourceUrl>"
      ],
      rules:
        "UTF-8, lines joined by a single \\n, no trailing newline; no field may hold a line break or surrounding spaces. The first text (binding \"request\", the default) binds this very request; the second (binding \"challenge\") binds the request the challenge describes, for clients that never see the body"
    },
    credential: {
      x402: "PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the offer>, payload: { digest, proof, binding?: \"request\" | \"challenge\" } })",
      mpp: "Authorization: Payment base64url(JSON { challenge: <the whole challenge: id, realm, method, intent, request (as received), expires>, payload: { digest, proof, binding? } })"
    },
    answers: [
      "Paid and proven: the seller's answer, with PAYMENT-RESPONSE (x402 SettleResponse) and Payment-Receipt (MPP receipt); both name the consumed payment sui:<network>:<digest>",
      "409 NOT_FINAL: the payment is not checkpointed yet; present the same credential again shortly",
      "503 UNAVAILABLE (upstream_…_retry_with_the_same_credential): the payment is kept; present the same credential again",
      "402 payment_proof_invalid: the proof is missing, malformed, by another key or for another request; nothing is forwarded and the payment stays yours to present again with a valid proof",
      "502 UNVERIFIED (reason amount: / recipient: / memo:): the payment does not match the challenge; nothing is forwarded, and payments are never refunded: pay exactly the offer",
      "Never pay one challenge twice; a repeated credential gets the kept answer"
    ],
    documentation: [`${origin}/SKILL.md`, `${origin}/llms.txt`, `${origin}/openapi.json`, `${origin}/.well-known/x402`]
  }
})
