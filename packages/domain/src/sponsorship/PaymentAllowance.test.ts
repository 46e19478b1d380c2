import { assert, describe, it } from "@effect/vitest"
import { DAY_MS, MINUTE_MS } from "../limits/Quota.ts"
import { paymentAllowances } from "./PaymentAllowance.ts"
import { gasAllowances, neverFits } from "./SponsorAllowance.ts"

const BUDGETS = { gasPerGrantOwnerPerDay: 2000, gasPerPayerPerDay: 50, gasPerMinute: 500 }
const OWNER_BUDGETS = { ownerGasPerDay: 1, newcomerGasPerDay: 1, gasPerMinute: 1, newcomerGasPerMinute: 1 }
const OWNER = `0x${"a".repeat(64)}`
const PAYER = `0x${"b".repeat(64)}`

const shapeOf = (allowances: ReturnType<typeof paymentAllowances>) =>
  allowances.map((a) => [a.bucket, a.quota.limit, a.quota.windowMs, a.refusal.reason])

describe("which budgets a sponsored payment takes from", () => {
  it("a grant payment takes from its grant owner's day and everyone's payment minute, never the payer's", () => {
    assert.deepStrictEqual(shapeOf(paymentAllowances({ _tag: "GrantOwner", owner: OWNER }, BUDGETS)), [
      [`sponsor_payment_gas_day:grant_owner:${OWNER}`, 2000, DAY_MS, "sponsor_grant_owner_budget"],
      ["sponsor_payment_gas_minute", 500, MINUTE_MS, "sponsor_payment_budget"]
    ])
  })

  it("a plain transfer takes from its payer's day and everyone's payment minute", () => {
    assert.deepStrictEqual(shapeOf(paymentAllowances({ _tag: "Payer", payer: PAYER }, BUDGETS)), [
      [`sponsor_payment_gas_day:payer:${PAYER}`, 50, DAY_MS, "sponsor_payer_budget"],
      ["sponsor_payment_gas_minute", 500, MINUTE_MS, "sponsor_payment_budget"]
    ])
  })

  it("one address spelled two ways is one bucket, and its days as grant owner and as payer are apart", () => {
    const [asOwner] = paymentAllowances({ _tag: "GrantOwner", owner: "0xA" }, BUDGETS)
    const [asOwnerAgain] = paymentAllowances({ _tag: "GrantOwner", owner: `0x${"0".repeat(63)}a` }, BUDGETS)
    const [asPayer] = paymentAllowances({ _tag: "Payer", payer: "0xa" }, BUDGETS)
    assert.strictEqual(asOwner?.bucket, asOwnerAgain?.bucket)
    assert.notStrictEqual(asOwner?.bucket, asPayer?.bucket)
  })

  it("no bucket is one of owners' own sponsored calls", () => {
    const owners = new Set([...gasAllowances(OWNER, "staked", OWNER_BUDGETS), ...gasAllowances(OWNER, "newcomer", OWNER_BUDGETS)].map((a) => a.bucket))
    for (const charge of [{ _tag: "GrantOwner", owner: OWNER }, { _tag: "Payer", payer: OWNER }] as const) {
      for (const a of paymentAllowances(charge, BUDGETS)) assert.isFalse(owners.has(a.bucket), a.bucket)
    }
  })

  it("a build larger than a whole budget never fits it", () => {
    assert.strictEqual(neverFits(paymentAllowances({ _tag: "Payer", payer: PAYER }, BUDGETS), 50n), undefined)
    assert.strictEqual(neverFits(paymentAllowances({ _tag: "Payer", payer: PAYER }, BUDGETS), 51n)?.refusal.reason, "sponsor_payer_budget")
    assert.strictEqual(neverFits(paymentAllowances({ _tag: "GrantOwner", owner: OWNER }, BUDGETS), 501n)?.refusal.reason, "sponsor_payment_budget")
  })
})
