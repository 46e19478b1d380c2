import { assert, describe, it } from "@effect/vitest"
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http"
import fc from "fast-check"
import { paymentRequiredHeader } from "./PaymentChallenge.ts"

describe("the PAYMENT-REQUIRED header", () => {
  it("is byte for byte what @x402/core encodes, and decodes back with it, for any text (non-ASCII included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), fc.string({ maxLength: 40 }), (description, payTo) => {
        const required = {
          x402Version: 2,
          error: "payment_required",
          resource: { url: "https://gateway.example/v1/pay/svc_1", description, mimeType: "application/json" },
          accepts: [{ scheme: "exact", network: "sui:localnet" as const, amount: "40", asset: "0x2::sui::SUI", payTo, maxTimeoutSeconds: 300, extra: { nonce: description } }]
        }
        const header = paymentRequiredHeader(required)
        assert.strictEqual(header, encodePaymentRequiredHeader(required))
        assert.deepStrictEqual(decodePaymentRequiredHeader(header), required)
      }),
      { seed: 402, numRuns: 300 }
    )
  })
})
