import { Example } from "../Doc.ts"
import { PAY_THIS_CALL } from "../payment/RechallengeMessage.ts"

/**
 * `/v1/pay/{serviceId}` in `/openapi.json`. The paid-call route proxies raw
 * bodies for any declared method, so it is served beside the HttpApi, not by
 * it; this describes it for outside developers: the 402 challenge with its two
 * offers (sign-first `exact`, the default, then upfront `sui-delegate`), the
 * credential headers of each, the receipt headers, the answers, and the
 * `x-payment-info` extension naming the protocols (docs/paid-calls.md is the
 * full text).
 */
const errorBody = { $ref: "#/components/schemas/PaymentErrorBody" }

/** Example values of one challenge, consistent across the offers' fields. */
const SERVICE_ID = "svc_0123456789abcdefghijklmnop"
const PACKAGE_ID = "0x9c3f5a1e7b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e"

const PAYMENT_REQUIRED_REASON = "payment_required"
const NONCE = `${SERVICE_ID}.1.1768469700000.3f2a9c1e7b4d4e8a9c0b1d2e3f4a5b6c.Zx8kQ2mN9pL4vR7tY1wE3u`
const EXPIRES_AT = "2026-01-15T09:35:00.000Z"
const PAY_TO = "0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d"

/** The example challenge's exact offer, as an x402 credential echoes it in `accepted`. */
const EXACT_OFFER = {
  scheme: "exact",
  network: "sui:testnet",
  amount: "1000",
  asset: "0x2::sui::SUI",
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: {
    paymentFlow: "authorization",
    assetTransferMethod: "spend_account::pay",
    nonce: NONCE,
    serviceId: SERVICE_ID,
    method: "GET",
    path: "/v1/answer",
    resourceUrl: `https://gateway.example/v1/pay/${SERVICE_ID}`,
    packageId: PACKAGE_ID,
    publishedAt: PACKAGE_ID,
    expiresAt: EXPIRES_AT
  }
}

/** A sign-first payload: the transaction bytes are shortened, as in `Example.base64`. */
const SIGN_FIRST_PAYLOAD = { signature: Example.walletSignature, transaction: Example.base64 }

/** Header examples are the encodings the descriptions name, of the example challenge (its MPP `request` shortened). */
const PAYMENT_SIGNATURE_EXAMPLE = btoa(JSON.stringify({ x402Version: 2, accepted: EXACT_OFFER, payload: SIGN_FIRST_PAYLOAD }))
const MPP_CHALLENGE = { id: "q1Xb3kP0sY7nW2eR5tU8vA4cD6fG9hJ1kL3mN5oP7rS", realm: "gateway.example", method: "sui", intent: "charge", request: "eyJhbW91bnQiOiIxMDAwIn0", expires: EXPIRES_AT }
const AUTHORIZATION_EXAMPLE = `Payment ${
  btoa(JSON.stringify({ challenge: MPP_CHALLENGE, payload: SIGN_FIRST_PAYLOAD })).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/u, "")
}`

const credentialHeaders = [
  {
    name: "PAYMENT-SIGNATURE",
    in: "header",
    required: false,
    description:
      "x402 credential: base64 of JSON { x402Version: 2, accepted: <the offer of the 402 it pays, echoed>, payload }. Sign-first (scheme exact, the default): payload { signature, transaction }, both base64: the payer's signature over a whole BCS TransactionData it did not execute (one spend_account::pay call with memo = the nonce, or a plain transfer of the asset to payTo), expiring with the current epoch, gas paid by the payer or by the gas station (POST /v1/gas-station). Upfront (scheme sui-delegate): payload { digest, proof, binding? }: an executed, checkpointed payment's digest and the paying delegate's personal-message signature (docs/paid-calls.md §4).",
    schema: { type: "string" },
    example: PAYMENT_SIGNATURE_EXAMPLE
  },
  {
    name: "Authorization",
    in: "header",
    required: false,
    description:
      "MPP credential for the same challenge: `Payment <base64url of JSON { challenge: <the whole challenge of WWW-Authenticate, request still base64url>, payload }>`, payload { transaction, signature } (sign-first) or { digest, proof, binding? } (upfront).",
    schema: { type: "string" },
    example: AUTHORIZATION_EXAMPLE
  }
]

const paidAnswer = {
  description:
    "The seller's answer (its status, content type and body), with the receipts of the payment. A sign-first payment was executed after the seller answered; the same credential again returns the kept answer within PAID_ANSWER_RETENTION_MS.",
  headers: {
    "PAYMENT-RESPONSE": { description: "x402 SettleResponse, base64 JSON: success, transaction (the payment's digest), network, payer, amount, extra.proofKey (sui:<network>:<digest>), extra.nonce.", schema: { type: "string" } },
    "Payment-Receipt": { description: "MPP receipt, base64url JSON: method sui, reference (the digest), externalId (sui:<network>:<digest>), status, timestamp.", schema: { type: "string" } }
  },
  content: { "*/*": { schema: {} } }
}

const challenge = {
  description:
    "Payment required (also: challenge_expired, unknown_challenge, payment_for_another_challenge, and for an upfront payment payment_proof_invalid): sign the exact offer's payment (or pay the sui-delegate offer on chain), then repeat the request with a credential.",
  headers: {
    "PAYMENT-REQUIRED": {
      description:
        "x402 v2 PaymentRequired, base64 JSON: accepts holds two offers of the same terms and nonce, first scheme exact (sign-first, the default; extra.gasStation when the gateway sponsors gas), then scheme sui-delegate (upfront); and extensions.bazaar.",
      schema: { type: "string" }
    },
    "WWW-Authenticate": { description: "MPP challenge: Payment id, realm, method=\"sui\", intent=\"charge\", request (base64url JCS, Sui terms in methodDetails, rail delegate), expires. It takes a sign-first or an upfront payload.", schema: { type: "string" } },
    "Cache-Control": { description: "no-store: every challenge carries its own nonce and expiry.", schema: { type: "string" } }
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/PaymentRequiredBody" } } }
}

const failure = (description: string) => ({ description, content: { "application/json": { schema: errorBody } } })

const operation = (method: string) => ({
  tags: ["paid calls"],
  operationId: `paidCalls.${method}`,
  summary: "Call a paid service",
  description:
    "Calls the service with its declared method (and HEAD beside GET). Without a credential the answer is 402 with the challenge. Sign-first (x402 exact, the default): the signed, unexecuted payment is verified (signature, terms, expiry, simulation), the call forwarded once, and the payment executed only after the seller answered; a seller that fails costs nothing, and the same signed payment is presented again. Upfront (sui-delegate): a payment final on chain with a proof of possession by the paying delegate; the call is forwarded once. A kept answer is returned again for the same credential within PAID_ANSWER_RETENTION_MS. Never pay one challenge twice. See /SKILL.md and docs/paid-calls.md.",
  parameters: [
    {
      name: "serviceId",
      in: "path",
      required: true,
      schema: { type: "string", pattern: "^svc_[0-9a-z]{26}$" },
      description: "The service id (see /v1/services).",
      example: SERVICE_ID
    },
    ...credentialHeaders
  ],
  ...(method === "get" || method === "delete" ? {} : { requestBody: { required: false, content: { "*/*": { schema: {} } } } }),
  responses: {
    "200": paidAnswer,
    "400": failure("INVALID: a sign-first payment that does not pay this challenge (bytes, signature, terms, expiry, gas, grant, policy or simulation; reason names the part); nothing was charged."),
    "402": challenge,
    "404": failure("No live service with this id."),
    "405": failure("The service is not called with this method; Allow names the one it is."),
    "409": failure(
      "CONFLICT or NOT_FINAL. Sign-first: payment_in_flight (being forwarded or settled by another request), payment_overlaps_unsettled_payment or grant_budget_held_by_unsettled_payments (another unsettled payment holds the same coins, balance or grant budget), challenge_already_paid (another signed payment paid this challenge), payment_already_executed (executed outside the gateway), payer_upfront_only (the payer's settlement failed in the last 24 h: pay upfront), paid_answer_expired. Upfront: NOT_FINAL (the payment is not checkpointed yet: present the same credential again), payment_in_flight, paid_answer_expired."
    ),
    "429": failure("RATE_LIMITED: too many 402 challenges asked for by this client (payment_challenges_rate_limited, PAYMENT_CHALLENGES_PER_MINUTE) or too many of its payment credentials failed (payment_presentations_rate_limited, PAYMENT_FAILURES_PER_MINUTE); Retry-After says when to try again."),
    "502": failure(
      "TX_FAILED settlement_failed: <why> (sign-first): the seller answered but the chain would not execute the payment; nothing was charged, the answer is withheld, and the payer pays upfront for 24 h. UNVERIFIED (upfront): the payment's amount, recipient or memo is not the challenge's; nothing is forwarded or refunded."
    ),
    "503": failure(
      "UNAVAILABLE. Sign-first: upstream_…_nothing_charged_retry_with_the_same_payment (the seller failed; nothing was executed: present the same signed payment again) or settlement_pending: … (the seller answered and settling is delayed; the answer is kept: present the same signed payment again). Upfront: upstream_…_retry_with_the_same_credential (the payment is kept: present the same credential again)."
    )
  },
  "x-payment-info": {
    protocols: ["x402", "mpp"],
    x402: {
      x402Version: 2,
      schemes: [
        { scheme: "exact", paymentFlow: "authorization", assetTransferMethod: "spend_account::pay", payload: "{ signature, transaction }", finality: "executed by the gateway after the seller answered" },
        { scheme: "sui-delegate", paymentFlow: "upfront", assetTransferMethod: "spend_account::pay", payload: "{ digest, proof, binding? }", finality: "checkpointed" },
        {
          scheme: "sui-session",
          paymentFlow: "session",
          sessionOpen: "spend_account::open_session",
          payload: "{ session, cumulativeAmount, signature }",
          finality: "a voucher per call; claimed by the gateway in batches (docs/paid-calls.md §7)"
        }
      ]
    },
    mpp: { method: "sui", intents: ["charge", "session"] },
    gasStation: "POST /v1/gas-station (the exact offer's extra.gasStation, when present)",
    pricing: "per call: the service's price in atomic units of its asset (GET /v1/services/{serviceId})",
    refunds: "none"
  }
})

const termsProperties = {
  network: { type: "string", description: "The chain to pay on, `sui:<network>`.", examples: ["sui:testnet"] },
  amount: { type: "string", description: "The price in atomic units of asset (a decimal string: \"1000\" is 0.000001 SUI).", examples: ["1000"] },
  asset: { type: "string", description: "The coin type to pay in.", examples: ["0x2::sui::SUI"] },
  payTo: {
    type: "string",
    description: "The seller's Sui address the payment goes to.",
    examples: [PAY_TO]
  },
  maxTimeoutSeconds: { type: "number", description: "How long the offer stands: pay and present within this many seconds.", examples: [300] }
}

const extraRequired = ["paymentFlow", "assetTransferMethod", "nonce", "serviceId", "method", "path", "resourceUrl", "packageId", "publishedAt", "expiresAt"]

const extraProperties = {
  assetTransferMethod: {
    const: "spend_account::pay",
    description: "The Move call that pays: the delegate's grant pays from the owner's pool.",
    examples: ["spend_account::pay"]
  },
  serviceId: { type: "string", description: "The catalog service this offer is for.", examples: [SERVICE_ID] },
  method: { type: "string", description: "The HTTP method the paid call must use.", examples: ["GET"] },
  path: { type: "string", description: "The seller's path the paid call is forwarded to.", examples: ["/v1/answer"] },
  resourceUrl: {
    type: "string",
    description: "The URL to call again with the payment credential.",
    examples: [`https://gateway.example/v1/pay/${SERVICE_ID}`]
  },
  packageId: { type: "string", description: "The spend_account package's original id.", examples: [PACKAGE_ID] },
  publishedAt: {
    type: "string",
    description: "The package id pay is called at: the version in use, equal to packageId before any upgrade.",
    examples: [PACKAGE_ID]
  },
  expiresAt: {
    type: "string",
    format: "date-time",
    description: "When the challenge expires: a payment made on chain after it is refused (and recorded).",
    examples: [EXPIRES_AT]
  }
}

const offerRequired = ["scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds", "extra"]

const schemas = {
  PaymentErrorBody: {
    type: "object",
    required: ["ok", "code", "message"],
    properties: {
      ok: { const: false, description: "Always false on an error.", examples: [false] },
      code: { type: "string", description: "The spec's error code.", examples: ["INVALID"] },
      message: {
        type: "string",
        description: "What happened, what to do next, and what happened to the money.",
        examples: ["PAYMENT-SIGNATURE is not base64 of UTF-8 text: send base64(JSON of the x402 payment payload)"]
      },
      reason: { type: "string", description: "The exact condition, for a program.", examples: ["payment_signature_not_base64"] }
    }
  },
  PaidCallExactOffer: {
    type: "object",
    description: "x402's exact scheme on Sui (sign-first, the default): sign the payment, do not execute it; present { signature, transaction }.",
    required: offerRequired,
    properties: {
      scheme: { const: "exact", description: "Sign-first: sign the payment transaction, the gateway executes it.", examples: ["exact"] },
      ...termsProperties,
      extra: {
        type: "object",
        description: "The challenge's own terms: what the payment's memo and the paid call must match.",
        required: extraRequired,
        properties: {
          paymentFlow: { const: "authorization", description: "The payer signs; the gateway executes.", examples: ["authorization"] },
          nonce: { type: "string", description: "The memo of the pay call (its UTF-8 bytes); one signed payment per challenge.", examples: [NONCE] },
          ...extraProperties,
          gasStation: {
            type: "string",
            description: "POST { transactionKind, sender } here to have the gateway's sponsor pay the gas; absent when it sponsors none.",
            examples: ["https://gateway.example/v1/gas-station"]
          }
        }
      }
    }
  },
  PaidCallSuiDelegateOffer: {
    type: "object",
    description: "Upfront: execute the payment, wait for the checkpoint, present { digest, proof, binding? }.",
    required: offerRequired,
    properties: {
      scheme: { const: "sui-delegate", description: "Upfront: execute the payment yourself, then present its digest.", examples: ["sui-delegate"] },
      ...termsProperties,
      extra: {
        type: "object",
        description: "The challenge's own terms: what the payment's memo and the paid call must match.",
        required: extraRequired,
        properties: {
          paymentFlow: { const: "upfront", description: "The payer executes before presenting.", examples: ["upfront"] },
          nonce: {
            type: "string",
            description: "The memo of the pay call (its UTF-8 bytes); each payment of this challenge is served once.",
            examples: [NONCE]
          },
          ...extraProperties
        }
      }
    }
  },
  PaymentRequiredBody: {
    type: "object",
    description: "The error fields and the x402 PaymentRequired of the PAYMENT-REQUIRED header.",
    required: ["ok", "code", "message", "x402Version", "resource", "accepts"],
    properties: {
      ok: { const: false, description: "Always false: the call is not answered until it is paid.", examples: [false] },
      code: { const: "PAYMENT_REQUIRED", description: "The call needs a payment.", examples: ["PAYMENT_REQUIRED"] },
      message: {
        type: "string",
        description:
          "What to do: pay one of accepts and call again with the credential. When it refuses a presented payment, it also says whether that payment moved money, how much, to whom, and that it is recorded as refused.",
        examples: [PAY_THIS_CALL]
      },
      reason: {
        type: "string",
        description: "Why a fresh challenge was issued (none presented, expired, unknown challenge…).",
        examples: [PAYMENT_REQUIRED_REASON]
      },
      x402Version: { const: 2, description: "The x402 protocol version.", examples: [2] },
      error: { type: "string", description: "x402's reason for the challenge, as reason.", examples: [PAYMENT_REQUIRED_REASON] },
      resource: {
        type: "object",
        description: "The paid resource.",
        properties: {
          url: { type: "string", description: "The URL being paid for.", examples: [`https://gateway.example/v1/pay/${SERVICE_ID}`] },
          description: { type: "string", description: "The service's description.", examples: ["Today's forecast for one city"] },
          mimeType: { type: "string", description: "The content type of its answer.", examples: ["application/json"] }
        }
      },
      accepts: {
        type: "array",
        description: "Two offers of the same terms and nonce: first exact (sign-first), then sui-delegate (upfront).",
        minItems: 2,
        prefixItems: [{ $ref: "#/components/schemas/PaidCallExactOffer" }, { $ref: "#/components/schemas/PaidCallSuiDelegateOffer" }]
      },
      extensions: {
        type: "object",
        description: "x402 extensions.",
        properties: { bazaar: { type: "object", description: "Discovery metadata for x402 bazaar indexes." } }
      }
    }
  }
}

const METHODS = ["get", "post", "put", "patch", "delete"]

const recordOf = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {}

export const withPaidCallPath = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = recordOf(spec["components"])
  return {
    ...spec,
    paths: { ...recordOf(spec["paths"]), "/v1/pay/{serviceId}": Object.fromEntries(METHODS.map((m) => [m, operation(m)])) },
    components: { ...components, schemas: { ...recordOf(components["schemas"]), ...schemas } },
    tags: [...(Array.isArray(spec["tags"]) ? spec["tags"] : []), { name: "paid calls", description: "Paid calls to sellers' services, paid on Sui (x402 and MPP): sign-first (exact) by default, upfront (sui-delegate) as the alternative." }]
  }
}
