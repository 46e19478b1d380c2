import { assert, describe, it } from "@effect/vitest"
import { DAY_MS, MINUTE_MS } from "../limits/Quota.ts"
import { gasAllowances, neverFits, standingOf } from "./SponsorAllowance.ts"

const BUDGETS = { ownerGasPerDay: 500, newcomerGasPerDay: 25, gasPerMinute: 100, newcomerGasPerMinute: 50 }

describe("who is a newcomer, and which budgets a build takes from", () => {
  it("a newcomer has no spend account holding anything and no live service", () => {
    assert.strictEqual(standingOf({ poolBalances: [], liveServices: 0 }), "newcomer")
    assert.strictEqual(standingOf({ poolBalances: [0n, 0n], liveServices: 0 }), "newcomer")
    assert.strictEqual(standingOf({ poolBalances: [0n, 1n], liveServices: 0 }), "staked")
    assert.strictEqual(standingOf({ poolBalances: [], liveServices: 1 }), "staked")
  })

  it("an owner with stake takes from their day and everyone's minute", () => {
    const taken = gasAllowances("0xa", "staked", BUDGETS)
    assert.deepStrictEqual(taken.map((a) => [a.bucket, a.quota.limit, a.quota.windowMs, a.refusal.reason]), [
      ["sponsor_gas_day:0xa", 500, DAY_MS, "sponsor_owner_budget"],
      ["sponsor_gas_minute", 100, MINUTE_MS, "sponsor_budget"]
    ])
  })

  it("a newcomer takes from a smaller day on the same counter, and from the newcomers' share of the minute too", () => {
    const taken = gasAllowances("0xa", "newcomer", BUDGETS)
    assert.deepStrictEqual(taken.map((a) => [a.bucket, a.quota.limit, a.quota.windowMs, a.refusal.reason]), [
      ["sponsor_gas_day:0xa", 25, DAY_MS, "sponsor_newcomer_budget"],
      ["sponsor_gas_newcomers", 50, MINUTE_MS, "sponsor_newcomers_busy"],
      ["sponsor_gas_minute", 100, MINUTE_MS, "sponsor_budget"]
    ])
  })

  it("a build larger than a whole budget never fits it: the first such budget, or none", () => {
    const newcomer = gasAllowances("0xa", "newcomer", BUDGETS)
    assert.strictEqual(neverFits(newcomer, 25n), undefined)
    assert.strictEqual(neverFits(newcomer, 26n)?.refusal.reason, "sponsor_newcomer_budget")
    assert.strictEqual(neverFits(gasAllowances("0xa", "staked", BUDGETS), 101n)?.refusal.reason, "sponsor_budget")
    assert.strictEqual(neverFits(gasAllowances("0xa", "staked", BUDGETS), 100n), undefined)
  })
})
