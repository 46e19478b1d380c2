import { describe, expect, it } from "@effect/vitest"
import { SUI_COIN_TYPE } from "../chain/SpendAccountModule.ts"
import { CoinType } from "../CoinType.ts"
import { ServiceId } from "../Ids.ts"
import type { PolicyRule } from "../Policy.ts"
import { SuiAddress } from "../SuiAddress.ts"
import { decideAcceptance, type PaymentFacts } from "./PaymentAcceptance.ts"

const USDC = "0x" + "a".repeat(64) + "::usdc::USDC"
const PAY_TO = "0x" + "b".repeat(64)
const rule = (overrides: Partial<PolicyRule> = {}): PolicyRule => ({
  serviceIds: [], methods: [], paths: [], recipients: [], assets: [], ...overrides
})

const SERVICE = `svc_${"1".repeat(26)}`
const OTHER_SERVICE = `svc_${"2".repeat(26)}`

const facts = (overrides: Partial<PaymentFacts> = {}): PaymentFacts => ({
  paidAtMs: 1_000,
  challengeExpiresAtMs: 2_000,
  paidFromPool: "0xpool",
  grant: { id: "0xgrant", poolId: "0xpool", coinType: SUI_COIN_TYPE, policyRules: [] },
  asked: { serviceId: SERVICE, method: "GET", path: "/x", payTo: PAY_TO, asset: "0x2::sui::SUI" },
  ...overrides
})

describe("decideAcceptance", () => {
  it("accepts a payment in time, from a provisioned grant's own pool, in the asked asset, with no policy", () => {
    expect(decideAcceptance(facts())._tag).toBe("Accepted")
  })

  it("cannot decide without the chain's time, and a payment after the expiry is late, even by a millisecond", () => {
    expect(decideAcceptance(facts({ paidAtMs: 0 }))._tag).toBe("NoTimestamp")
    expect(decideAcceptance(facts({ paidAtMs: 2_001 }))._tag).toBe("Late")
    expect(decideAcceptance(facts({ paidAtMs: 2_000 }))._tag).toBe("Accepted")
  })

  it("refuses a grant this gateway did not provision, or one paying from another pool", () => {
    expect(decideAcceptance(facts({ grant: undefined }))).toEqual({ _tag: "Refused", refusal: "unknown_grant" })
    expect(decideAcceptance(facts({ paidFromPool: "0xother" }))).toEqual({ _tag: "Refused", refusal: "unknown_grant" })
  })

  it("refuses a cheaper coin paying a price set in another asset", () => {
    const grant = { id: "0xgrant", poolId: "0xpool", coinType: USDC, policyRules: [] }
    expect(decideAcceptance(facts({ grant }))).toEqual({ _tag: "Refused", refusal: "wrong_asset" })
  })

  it("applies the owner's policy: some rule must allow every dimension of the call", () => {
    const only = (r: PolicyRule) => facts({ grant: { id: "0xgrant", poolId: "0xpool", coinType: SUI_COIN_TYPE, policyRules: [r] } })
    expect(decideAcceptance(only(rule({ serviceIds: [ServiceId.make(SERVICE)] })))._tag).toBe("Accepted")
    expect(decideAcceptance(only(rule({ serviceIds: [ServiceId.make(OTHER_SERVICE)] })))).toEqual({ _tag: "Refused", refusal: "policy" })
    expect(decideAcceptance(only(rule({ recipients: [SuiAddress.make("0x" + "c".repeat(64))] })))).toEqual({ _tag: "Refused", refusal: "policy" })
    expect(decideAcceptance(only(rule({ assets: [CoinType.make("0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI")] })))._tag).toBe("Accepted")
  })
})
