import { assert, describe, it } from "@effect/vitest"
import { budgetFromSimulation, grossCost, netCharge, recheckRefusal, unspent } from "./GasBudget.ts"

/** A sponsored grant create on LocalLedger at a reference price of 1000. */
const CREATE = { computationCost: 1_000_000n, storageCost: 5_244_000n, storageRebate: 3_024_648n }

describe("gas budget arithmetic", () => {
  it("budgets the simulated gross cost plus a tenth, at least the safe overhead, within the cap", () => {
    assert.strictEqual(grossCost(CREATE), 6_244_000n)
    assert.deepStrictEqual(budgetFromSimulation(CREATE, 1000n, 50_000_000n), { ok: true, budget: 6_244_000n + 1_000_000n })
    const small = { computationCost: 1_000_000n, storageCost: 0n, storageRebate: 0n }
    assert.deepStrictEqual(budgetFromSimulation(small, 1000n, 50_000_000n), { ok: true, budget: 2_000_000n })
    const large = { computationCost: 1_000_000n, storageCost: 40_000_000n, storageRebate: 0n }
    assert.deepStrictEqual(budgetFromSimulation(large, 1000n, 50_000_000n), { ok: true, budget: 45_100_000n })
  })

  it("caps the margin at the cap, and refuses a call whose cost alone is over it", () => {
    const near = { computationCost: 1_000_000n, storageCost: 48_000_000n, storageRebate: 0n }
    assert.deepStrictEqual(budgetFromSimulation(near, 1000n, 50_000_000n), { ok: true, budget: 50_000_000n })
    const over = { computationCost: 1_000_000n, storageCost: 50_000_000n, storageRebate: 0n }
    const decision = budgetFromSimulation(over, 1000n, 50_000_000n)
    assert.isFalse(decision.ok)
  })

  it("counts what was paid net of the rebate, never below zero, and gives back the rest of the budget", () => {
    assert.strictEqual(netCharge(CREATE), 3_219_352n)
    assert.strictEqual(unspent(7_244_000n, CREATE), 7_244_000n - 3_219_352n)
    const rebated = { computationCost: 1_000_000n, storageCost: 4_332_000n, storageRebate: 5_552_712n }
    assert.strictEqual(netCharge(rebated), 0n)
    assert.strictEqual(unspent(6_332_000n, rebated), 6_332_000n)
    const overBudget = { computationCost: 9_000_000n, storageCost: 0n, storageRebate: 0n }
    assert.strictEqual(unspent(6_000_000n, overBudget), 0n)
  })

  it("co-signs after the second simulation only what still succeeds within its budget, the rebate aside", () => {
    assert.isUndefined(recheckRefusal({ ok: true, gas: CREATE }, 6_244_000n), "exactly the budget")
    assert.strictEqual(recheckRefusal({ ok: true, gas: CREATE }, 6_243_999n), "simulation: the call would now cost more than its budget")
    assert.strictEqual(recheckRefusal({ ok: false, error: "MoveAbort 3" }, 7_244_000n), "simulation: the call would abort now: MoveAbort 3")
  })
})
