import { describe, expect, it } from "@effect/vitest"
import { RECHALLENGE_REFUSALS } from "./PaidCallDecision.ts"
import { rechallengeMessage, SIGNED_PAYMENT_LATE } from "./RechallengeMessage.ts"
import type { PaymentClaim } from "./RecordedPayment.ts"

const claim: PaymentClaim = {
  digest: "9xDigest",
  nonce: "n1",
  serviceId: "svc_1",
  revision: 1,
  serviceName: "weather",
  asset: "0x2::sui::SUI",
  recipient: "0xseller",
  grantObjectId: "0xgrant",
  grantId: "g_1",
  payer: "0xagent",
  amount: "40",
  refusal: "challenge_expired"
}

describe("the message of a 402 refusing a payment", () => {
  it("a late payment with money moved names the digest, the amount, the asset, where it went and that it is recorded", () => {
    expect(rechallengeMessage("challenge_expired", claim)).toBe(
      "Payment 9xDigest reached the chain after its challenge expired: 40 atomic units of 0x2::sui::SUI moved from grant 0xgrant to 0xseller, and they are recorded as refused in the owner's payments (reason challenge_expired). They do not pay this call and this gateway cannot return them; only the recipient can. Pay the fresh challenge in this response"
    )
  })

  it("from a grant this gateway did not provision, it names no coin (the chain's event names none) and no owner's list", () => {
    const message = rechallengeMessage("challenge_expired", { ...claim, grantId: null })
    expect(message).toContain("40 atomic units of the grant's coin moved from grant 0xgrant to 0xseller")
    expect(message).toContain("recorded as refused by this gateway")
    expect(message).not.toContain("0x2::sui::SUI")
    expect(message).not.toContain("owner's payments")
  })

  it("a signed payment presented late says nothing moved", () => {
    expect(SIGNED_PAYMENT_LATE).toContain("no money moved")
  })

  it("every refusal says what to do next, and only the ones whose money moved say it moved", () => {
    for (const refusal of RECHALLENGE_REFUSALS) {
      const message = rechallengeMessage(refusal)
      expect(message).toMatch(/Pay the fresh challenge in this response$/)
      expect(message.includes("money moved")).toBe(refusal.startsWith("payment_refused_"))
    }
  })
})
