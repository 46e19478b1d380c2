import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { GrantKind, target } from "@gateway/domain/chain/SpendAccountModule"
import { pauseGrant, resumeGrant } from "../src/build/Kinds.ts"
import { PACKAGE } from "./LedgerHarness.ts"

const input = (kind: number) => ({ sender: `0x${"1".repeat(64)}`, grant: { objectId: `0x${"2".repeat(64)}`, initialSharedVersion: 3n }, kind })

/** The Move function the kind's one command calls. */
const calledFunction = (txKindBytes: string) => {
  const [command] = Transaction.fromKind(fromBase64(txKindBytes)).getData().commands
  return command?.MoveCall?.function
}

describe("pause and resume kinds", () => {
  it("call the function of the grant's own kind", async () => {
    for (const [kind, pause, resume] of [[GrantKind.policy, "pause_grant", "resume_grant"], [GrantKind.spend, "pause_spend_grant", "resume_spend_grant"], [GrantKind.open, "pause_open_grant", "resume_open_grant"]] as const) {
      const paused = await pauseGrant(PACKAGE, input(kind))
      assert.strictEqual(paused.moveTarget, target(PACKAGE, pause))
      assert.strictEqual(calledFunction(paused.txKindBytes), pause)
      assert.strictEqual((await resumeGrant(PACKAGE, input(kind))).moveTarget, target(PACKAGE, resume))
    }
  })

  it("build nothing for a kind the module does not define, rather than another kind's call", async () => {
    for (const kind of [3, -1, 1.5]) {
      const pause = await pauseGrant(PACKAGE, input(kind)).then(() => "built", (error: unknown) => String(error))
      const resume = await resumeGrant(PACKAGE, input(kind)).then(() => "built", (error: unknown) => String(error))
      assert.match(pause, new RegExp(`grant kind ${kind} is not one the module defines`))
      assert.match(resume, new RegExp(`grant kind ${kind} is not one the module defines`))
    }
  })
})
