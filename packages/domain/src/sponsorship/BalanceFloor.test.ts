import { assert, describe, it } from "@effect/vitest"
import { sponsorFunds } from "./BalanceFloor.ts"

describe("the sponsor's balance floor", () => {
  it("is below the floor only when the sponsor holds less than it", () => {
    assert.strictEqual(sponsorFunds(499n, 500n).status, "below_floor")
    assert.strictEqual(sponsorFunds(500n, 500n).status, "ok")
    assert.deepStrictEqual(sponsorFunds(0n, 0n), { status: "ok", balanceMist: 0n, floorMist: 0n })
  })
})
