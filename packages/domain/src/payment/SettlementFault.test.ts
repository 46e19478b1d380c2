import { describe, expect, it } from "@effect/vitest"
import { settlementFaultOf } from "./SettlementFault.ts"

describe("settlementFaultOf", () => {
  it("blames the network for the epoch, the gas price, congestion and the sponsor's own coin", () => {
    expect(settlementFaultOf("epoch: the signed payment expired with its epoch before it was executed", false)).toBe("network")
    expect(settlementFaultOf("chain: refused: TransactionExpired: valid until epoch 0, the current epoch is 1", false)).toBe("network")
    expect(settlementFaultOf("gas price 1000 is lower than the reference gas price 1200", true)).toBe("network")
    expect(settlementFaultOf("Object 0xfeed version 3 is not available for consumption", true)).toBe("network")
  })

  it("blames the payer for aborts and for its own coins spent elsewhere", () => {
    expect(settlementFaultOf("simulation: MoveAbort in 1st command, abort code: 3", true)).toBe("payer")
    expect(settlementFaultOf("Object 0xcoin version 3 is not available for consumption", false)).toBe("payer")
  })
})
