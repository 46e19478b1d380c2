import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { Events, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { calls, eventsOf, exactlyOne, finalFrom, sameAddress, unverified } from "./Common.ts"

/**
 * A pause (or resume) is verified by a GrantPauseSet for exactly the expected
 * grant object with the expected flag; only the pool owner can emit one.
 */
export const verifyGrantPauseSet = (
  expected: { readonly pkg: SpendAccountPackage; readonly owner: string; readonly grantObjectId: string; readonly paused: boolean },
  tx: ChainTransaction
) =>
  Effect.gen(function*() {
    yield* finalFrom(tx, expected.owner)
    yield* calls(
      tx,
      expected.pkg,
      expected.paused
        ? ["pause_grant", "pause_spend_grant", "pause_open_grant"]
        : ["resume_grant", "resume_spend_grant", "resume_open_grant"]
    )
    const events = eventsOf(tx, expected.pkg, "GrantPauseSet", Events.GrantPauseSet)
      .filter((e) => sameAddress(e.grant_id, expected.grantObjectId))
    if (events.length === 0) return yield* unverified("grant id", `no GrantPauseSet for ${expected.grantObjectId}`)
    const event = yield* exactlyOne(events, "GrantPauseSet")
    if (event.paused !== expected.paused) return yield* unverified("paused flag", `expected ${expected.paused}, got ${event.paused}`)
    if (!sameAddress(event.owner, expected.owner)) return yield* unverified("owner", `expected ${expected.owner}, got ${event.owner}`)
    return {}
  })
