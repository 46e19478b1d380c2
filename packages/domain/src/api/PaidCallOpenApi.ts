/**
 * `/v1/pay/{serviceId}` in `/openapi.json`. The paid-call route proxies raw
 * bodies for any declared method, so it is served beside the HttpApi, not by
 * it; this describes it for outside developers: the 402 challenge, the
 * credential headers, the receipt headers, and the `x-payment-info`
 * extension naming the protocols (docs/paid-calls.md is the full text).
 */
const errorBody = { $ref: "#/components/schemas/PaymentErrorBody" }

const credentialHeaders = [
  {
    name: "PAYMENT-SIGNATURE",
    in: "header",
    required: false,
    description:
      "x402 credential: base64 of JSON { x402Version: 2, accepted: <the sui-delegate offer of the 402>, payload: { digest, proof, binding? } }.",
    schema: { type: "string" }
  },
  {
    name: "Authorization",
    in: "header",
    required: false,
    description:
      "MPP credential: `Payment <base64url of JSON { challenge: <the whole challenge of WWW-Authenticate, request still base64url>, payload: { digest, proof, binding? } }>`.",
    schema: { type: "string" }
  }
]

const paidAnswer = {
  description: "The seller's answer (its status, content type and body), with the receipts of the payment.",
  headers: {
    "PAYMENT-RESPONSE": { description: "x402 SettleResponse, base64 JSON: success, transaction (the digest), network, payer, amount, extra.proofKey (sui:<network>:<digest>).", schema: { type: "string" } },
    "Payment-Receipt": { description: "MPP receipt, base64url JSON: method sui, reference (the digest), externalId (sui:<network>:<digest>), status, timestamp.", schema: { type: "string" } }
  },
  content: { "*/*": { schema: {} } }
}

const challenge = {
  description: "Payment required: pay the challenge on chain, then repeat the request with a credential.",
  headers: {
    "PAYMENT-REQUIRED": { description: "x402 v2 PaymentRequired, base64 JSON, with one offer of scheme sui-delegate and extensions.bazaar.", schema: { type: "string" } },
    "WWW-Authenticate": { description: "MPP challenge: Payment id, realm, method=\"sui\", intent=\"charge\", request (base64url JCS, Sui terms in methodDetails), expires.", schema: { type: "string" } },
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
    "Calls the service with its declared method (and HEAD beside GET). Without a credential the answer is 402 with the challenge; with a valid credential (payment final on chain, proof of possession by the paying delegate) the call is forwarded once and the seller's answer returned. A kept answer is returned again for the same credential within PAID_ANSWER_RETENTION_MS. See /SKILL.md and docs/paid-calls.md.",
  parameters: [
    { name: "serviceId", in: "path", required: true, schema: { type: "string", pattern: "^svc_" }, description: "The service id (see /v1/services)." },
    ...credentialHeaders
  ],
  ...(method === "get" || method === "delete" ? {} : { requestBody: { required: false, content: { "*/*": { schema: {} } } } }),
  responses: {
    "200": paidAnswer,
    "402": challenge,
    "404": failure("No live service with this id."),
    "405": failure("The service is not called with this method; Allow names the one it is."),
    "409": failure("NOT_FINAL (the payment is not checkpointed yet: present the same credential again), payment_in_flight, or paid_answer_expired."),
    "429": failure("RATE_LIMITED: too many 402 challenges asked for by this client (payment_challenges_rate_limited, PAYMENT_CHALLENGES_PER_MINUTE) or too many of its payment credentials failed (payment_presentations_rate_limited, PAYMENT_FAILURES_PER_MINUTE); Retry-After says when to try again."),
    "503": failure("The seller failed or the chain is unavailable; the payment is kept: present the same credential again.")
  },
  "x-payment-info": {
    protocols: ["x402", "mpp"],
    x402: { x402Version: 2, scheme: "sui-delegate", paymentFlow: "upfront", assetTransferMethod: "spend_account::pay" },
    mpp: { method: "sui", intent: "charge" },
    pricing: "per call: the service's price in atomic units of its asset (GET /v1/services/{serviceId})",
    finality: "checkpointed",
    refunds: "none"
  }
})

const schemas = {
  PaymentErrorBody: {
    type: "object",
    required: ["ok", "code", "message"],
    properties: { ok: { const: false }, code: { type: "string" }, message: { type: "string" }, reason: { type: "string" } }
  },
  PaymentRequiredBody: {
    type: "object",
    description: "The error fields and the x402 PaymentRequired of the PAYMENT-REQUIRED header.",
    required: ["ok", "code", "message", "x402Version", "resource", "accepts"],
    properties: {
      ok: { const: false },
      code: { const: "PAYMENT_REQUIRED" },
      message: { type: "string" },
      reason: { type: "string" },
      x402Version: { const: 2 },
      error: { type: "string" },
      resource: { type: "object", properties: { url: { type: "string" }, description: { type: "string" }, mimeType: { type: "string" } } },
      accepts: {
        type: "array",
        items: {
          type: "object",
          required: ["scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds", "extra"],
          properties: {
            scheme: { const: "sui-delegate" },
            network: { type: "string", examples: ["sui:testnet"] },
            amount: { type: "string", description: "Atomic units of asset." },
            asset: { type: "string", description: "The coin type." },
            payTo: { type: "string" },
            maxTimeoutSeconds: { type: "number" },
            extra: {
              type: "object",
              required: ["paymentFlow", "assetTransferMethod", "nonce", "serviceId", "method", "path", "resourceUrl", "packageId", "publishedAt", "expiresAt"],
              properties: {
                paymentFlow: { const: "upfront" },
                assetTransferMethod: { const: "spend_account::pay" },
                nonce: { type: "string", description: "The memo of the pay call (its UTF-8 bytes); each payment of this challenge is served once." },
                serviceId: { type: "string" },
                method: { type: "string" },
                path: { type: "string" },
                resourceUrl: { type: "string" },
                packageId: { type: "string", description: "The package's original id." },
                publishedAt: { type: "string", description: "The package id pay is called at." },
                expiresAt: { type: "string", format: "date-time" }
              }
            }
          }
        }
      },
      extensions: { type: "object", properties: { bazaar: { type: "object" } } }
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
    tags: [...(Array.isArray(spec["tags"]) ? spec["tags"] : []), { name: "paid calls", description: "Paid calls to sellers' services, paid on Sui (x402 and MPP)." }]
  }
}
