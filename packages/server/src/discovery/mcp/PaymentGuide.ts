import { Effect, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { target } from "@gateway/domain/chain/SpendAccountModule"
import { FINAL_VOUCHER_DOMAIN, VOUCHER_DOMAIN } from "@gateway/domain/chain/SessionVoucher"
import { EXACT_SCHEME } from "@gateway/domain/payment/ExactOffer"
import { SESSION_SCHEME } from "@gateway/domain/payment/SessionOffer"
import { ASSET_TRANSFER_METHOD, SUI_DELEGATE_SCHEME } from "@gateway/domain/payment/SuiDelegateOffer"
import { CHALLENGE_PROOF_VERSION, PROOF_VERSION } from "@gateway/domain/PaymentProof"
import { AppConfig } from "../../Config.ts"
import { PublicUrl } from "../../httpShared/PublicUrl.ts"

/**
 * The paid-call protocol in brief (docs/paid-calls.md is the full text), as the `how_to_pay` tool returns it:
 * sign-first (`exact`, the default) in `signFirst`; `pay` is the call both ways sign or execute; `proof` and
 * `credential` are the upfront (`sui-delegate`) way's; `sessions` pays many calls from one deposit.
 */
export const PaymentGuideSchema = Schema.Struct({
  network: Schema.String,
  rail: Schema.Literal("delegate"),
  x402Scheme: Schema.String,
  challenge: Schema.String,
  signFirst: Schema.Struct({
    offer: Schema.String,
    transaction: Schema.String,
    gasStation: Schema.String,
    credential: Schema.Struct({ x402: Schema.String, mpp: Schema.String }),
    settlement: Schema.Array(Schema.String)
  }),
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
  sessions: Schema.Struct({
    offer: Schema.String,
    open: Schema.String,
    voucher: Schema.String,
    credential: Schema.Struct({ x402: Schema.String, mpp: Schema.String }),
    close: Schema.String,
    answers: Schema.Array(Schema.String)
  }),
  answers: Schema.Array(Schema.String),
  documentation: Schema.Array(Schema.String)
})
export type PaymentGuide = typeof PaymentGuideSchema.Type

/** Sessions (`sui-session`, docs/paid-calls.md §7): open once, a voucher per call, close with a final voucher. */
const sessionsGuide = (origin: string, openTarget: string): PaymentGuide["sessions"] => ({
  offer: `The third offer, scheme ${SESSION_SCHEME}: amount = the price of ONE call; for many calls to one seller. Nothing goes on chain per call`,
  open: `Once: pick a fresh Ed25519 session key (never your own key) and execute ${openTarget}<T>(registry, grant, pool, payee = payTo, operator = extra.sessionOperator, deposit, expiry_ms (at most a week, not after the grant's expiry), voucher_key = its 32-byte public key, clock = 0x6) with your delegate key; the SessionOpened event names the session. The deposit counts against your grant's budget until the session closes`,
  voucher: `Per call: cumulative = the last charged voucher's amount + the price; sign, with the session key (plain Ed25519, no intent), the 57 bytes "${VOUCHER_DOMAIN}" ‖ session id (32 bytes) ‖ cumulative (u64 little-endian). One call per session at a time`,
  credential: {
    x402: `PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the ${SESSION_SCHEME} offer, echoed>, payload: { session, cumulativeAmount, signature: base64 of the 64 bytes } })`,
    mpp: `Authorization: Payment base64url(JSON { challenge: <the intent="session" challenge>, payload: { action: "voucher", channelId: <session id>, cumulativeAmount, signature } })`
  },
  close: `Done: sign the final voucher ("${FINAL_VOUCHER_DOMAIN}" ‖ session id ‖ cumulative, cumulative = what was charged) and POST ${origin}/v1/sessions/<session id>/close { cumulativeAmount, signature }: the seller is paid up to it and the rest goes back to your pool`,
  answers: [
    "503 …nothing_charged_retry_with_the_same_voucher: the seller failed; present the SAME voucher again",
    "409 session_busy: another call of the session is in flight; 409 voucher_already_used: sign a higher one",
    "409 voucher_above_deposit: top_up or open a new session; 409 session_near_expiry, session_closing, session_closed: open a new session",
    "409 grant_paused, grant_revoked: your owner stopped the grant; do not open another"
  ]
})

/** Sign-first (`exact`): what is signed, the gas station at `origin`, the credential and what settling answers. */
const signFirstGuide = (origin: string): PaymentGuide["signFirst"] => ({
  offer:
    `The ${EXACT_SCHEME} offer (accepts[0]): sign a payment and do NOT execute it. The gateway verifies it, forwards the call once, and executes the payment only after the seller answered: a seller that fails costs you nothing`,
  transaction:
    "One command, the pay call below (memo = the UTF-8 bytes of the nonce, amount = exactly the offer's amount, recipient = payTo), sender = your own delegate key, expiration = { Epoch: <the current epoch> }; the whole BCS TransactionData is signed with your key (base64 signature, as signTransaction makes it) and sent base64. A plain transfer of asset to payTo from your own coins (coinWithBalance) is also accepted",
  gasStation:
    `If the offer's extra.gasStation is set (here ${origin}/v1/gas-station), POST it { transactionKind: <base64 BCS TransactionKind of the payment alone, built with onlyTransactionKind>, sender: <your address> }; it answers { transaction, sender, sponsor, gasBudget, expiresAt }. Before signing, check that transaction holds exactly your kind, unchanged, with you as sender and sponsor (not you) as gas owner; otherwise do not sign. 400 INVALID: not a payment it sponsors; 429: rate or gas budget used, Retry-After; 503: no sponsorship now. Without a gas station, pay gas from your own SUI`,
  credential: {
    x402: "PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the exact offer, echoed>, payload: { signature, transaction } })",
    mpp: "Authorization: Payment base64url(JSON { challenge: <the whole challenge: id, realm, method, intent, request (as received), expires>, payload: { transaction, signature } })"
  },
  settlement: [
    "409 CONFLICT payment_must_be_signed_again: the seller answered, but the network kept your payment from executing (its epoch ended, the gas price moved); sign a NEW payment for the SAME challenge (same nonce) and present it: it gets the kept answer, the seller is not asked again",
    "Seller answered: the payment is executed (its effects are final) and the answer comes with PAYMENT-RESPONSE (x402 SettleResponse, transaction = the digest) and Payment-Receipt; the same signed payment again gets the kept answer",
    "503 UNAVAILABLE upstream_…_nothing_charged_retry_with_the_same_payment: the seller failed and nothing was executed; present the SAME signed payment again (until expiresAt)",
    "503 UNAVAILABLE settlement_pending: the seller answered and settling is delayed; present the SAME signed payment again shortly to get the answer",
    "502 TX_FAILED settlement_failed: <why>: the chain would not execute your payment; nothing was charged and the answer is withheld; pay upfront (sui-delegate) for the next 24 h (409 payer_upfront_only until then)",
    "400 INVALID: the signed payment does not pay this challenge (reason names the part: bytes, signature, terms, expiry, gas, grant, policy or simulation); nothing was charged",
    "409 CONFLICT: payment_in_flight (another request is forwarding or settling it: present it again shortly), payment_overlaps_unsettled_payment or grant_budget_held_by_unsettled_payments (another payment of yours is unsettled), challenge_already_paid, payment_already_executed",
    "Never sign a second payment for one challenge (but after 409 payment_must_be_signed_again): retry with the same signed payment, or ask a new challenge"
  ]
})

/** The upfront proof of possession. */
const PROOF: PaymentGuide["proof"] = {
  signature: "upfront only (sign-first needs none: the signed transaction proves possession): a Sui personal-message signature (base64, as signPersonalMessage makes it) by the grant's delegate over one of the texts below",
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
}

const ANSWERS: PaymentGuide["answers"] = [
  "Sign-first (exact): see signFirst.settlement",
  "Paid and proven: the seller's answer, with PAYMENT-RESPONSE (x402 SettleResponse) and Payment-Receipt (MPP receipt); both name the payment's digest (upfront: the consumed payment sui:<network>:<digest>)",
  "Upfront: 409 NOT_FINAL: the payment is not checkpointed yet; present the same credential again shortly",
  "Upfront: 503 UNAVAILABLE (upstream_…_retry_with_the_same_credential): the payment is kept; present the same credential again",
  "Upfront: 402 payment_proof_invalid: the proof is missing, malformed, by another key or for another request; nothing is forwarded and the payment stays yours to present again with a valid proof",
  "Upfront: 502 UNVERIFIED (reason amount: / recipient: / memo:): the payment does not match the challenge; nothing is forwarded, and payments are never refunded: pay exactly the offer",
  "402 challenge_expired: ask for a new challenge; 402 payment_for_another_challenge: the payment paid another challenge",
  "Never pay one challenge twice; a repeated credential gets the kept answer"
]

/** The guide for this gateway: its network and the package its `pay` call lives in. */
export const paymentGuide: Effect.Effect<PaymentGuide, never, Chain | AppConfig | PublicUrl> = Effect.gen(function*() {
  const { network } = yield* Chain
  const { spendAccountPackage } = yield* AppConfig
  const { origin } = yield* PublicUrl
  return {
    network,
    rail: "delegate",
    x402Scheme:
      `${EXACT_SCHEME} (sign-first, the default: extra.paymentFlow "authorization", x402's name for verify first, settle after; x402's exact scheme on Sui), then ${SUI_DELEGATE_SCHEME} (upfront, the alternative: extra.paymentFlow "upfront"); both extra.assetTransferMethod "${ASSET_TRANSFER_METHOD}". This gateway's sui-pay package implements both for @x402/fetch and mppx, and its client package's AgentSdk pays sign-first; neither is on npm yet: install them from the gateway's repository as its README says, never from the registry by name`,
    challenge:
      `Call the service's resourceUrl with its method and no credential. The answer is 402 (Cache-Control: no-store) with an x402 v2 PAYMENT-REQUIRED header (the same JSON as body) whose accepts holds two offers of the same terms and nonce: FIRST scheme ${EXACT_SCHEME} (sign-first, pay this one: signFirst below), THEN scheme ${SUI_DELEGATE_SCHEME} (upfront: pay, proof and credential below). And a WWW-Authenticate: Payment header (MPP: method="sui", intent="charge", the same terms in request.methodDetails), which takes either kind of payment. Each offer's extra carries nonce (valid until expiresAt; one payment per challenge), serviceId, method, path, resourceUrl, packageId (original id), publishedAt and expiresAt; the exact offer also gasStation when this gateway pays the gas. Check amount, payTo and asset against get_service_terms and your owner's policy before paying.`,
    signFirst: signFirstGuide(origin),
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
      finality: "sign-first: the gateway executes it after the seller answered. Upfront: you execute it, and it counts once checkpointed; before that the gateway answers 409 NOT_FINAL and the same credential is presented again"
    },
    proof: PROOF,
    credential: {
      x402: "upfront: PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the sui-delegate offer>, payload: { digest, proof, binding?: \"request\" | \"challenge\" } })",
      mpp: "upfront: Authorization: Payment base64url(JSON { challenge: <the whole challenge: id, realm, method, intent, request (as received), expires>, payload: { digest, proof, binding? } })"
    },
    sessions: sessionsGuide(origin, target(spendAccountPackage, "open_session")),
    answers: ANSWERS,
    documentation: [`${origin}/SKILL.md`, `${origin}/llms.txt`, `${origin}/openapi.json`, `${origin}/.well-known/x402`]
  }
})
