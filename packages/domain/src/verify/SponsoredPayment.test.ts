import { assert, describe, it } from "@effect/vitest"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import type { PaymentTransaction } from "./PaymentTransaction.ts"
import { checkSponsoredPayment } from "./SponsoredPayment.ts"

const PAYER = normalizeSuiAddress("0xa")
const SPONSOR = normalizeSuiAddress("0x5")
const rules = { payer: PAYER, sponsor: SPONSOR, referenceGasPrice: 1000n, gasBudgetMax: 50_000_000n, epoch: 7n }

/** A payment as the gas station builds it. */
const built: PaymentTransaction = {
  sender: PAYER,
  gasOwner: SPONSOR,
  gasPayment: [{ objectId: normalizeSuiAddress("0xc0"), version: "3", digest: "d" }],
  gasPrice: 1000n,
  gasBudget: 3_000_000n,
  expiration: { _tag: "Epoch", epoch: 7n },
  shape: { _tag: "Transfer" },
  ownedObjectIds: []
}

const reasonOf = (tx: PaymentTransaction) => {
  const checked = checkSponsoredPayment(tx, rules)
  return checked.ok ? "ok" : checked.reason
}

describe("the gas rules of a sponsored payment", () => {
  it("accepts what the gas station builds", () => {
    assert.strictEqual(reasonOf(built), "ok")
  })

  it("refuses another sender, another gas owner, another price, a budget over the cap, several coins, another epoch", () => {
    assert.match(reasonOf({ ...built, sender: normalizeSuiAddress("0xb") }), /^transaction\.sender/)
    assert.match(reasonOf({ ...built, gasOwner: PAYER }), /^transaction\.gasData\.owner/)
    assert.match(reasonOf({ ...built, gasPrice: 2000n }), /^transaction\.gasData\.price/)
    assert.match(reasonOf({ ...built, gasBudget: 50_000_001n }), /^transaction\.gasData\.budget/)
    assert.match(reasonOf({ ...built, gasBudget: 0n }), /^transaction\.gasData\.budget/)
    assert.match(reasonOf({ ...built, gasPayment: [...built.gasPayment, ...built.gasPayment] }), /^transaction\.gasData\.payment/)
    assert.match(reasonOf({ ...built, gasPayment: [] }), /^transaction\.gasData\.payment/)
    assert.match(reasonOf({ ...built, expiration: { _tag: "Epoch", epoch: 6n } }), /^transaction\.expiration/)
    assert.match(reasonOf({ ...built, expiration: { _tag: "None" } }), /^transaction\.expiration/)
  })
})
