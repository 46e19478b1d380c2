import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { Events, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { calls, eventsOf, exactlyOne, finalFrom, sameAddress, unverified } from "./Common.ts"

/** A revoke is verified by a GrantRevoked for exactly the expected grant object. */
export const verifyGrantRevoked = (
  expected: { readonly pkg: SpendAccountPackage; readonly owner: string; readonly grantObjectId: string },
  tx: ChainTransaction
) =>
  Effect.gen(function*() {
    yield* finalFrom(tx, expected.owner)
    yield* calls(tx, expected.pkg, ["revoke_grant"])
    const events = eventsOf(tx, expected.pkg, "GrantRevoked", Events.GrantRevoked)
      .filter((e) => sameAddress(e.grant_id, expected.grantObjectId))
    if (events.length === 0) return yield* unverified("grant id", `no GrantRevoked for ${expected.grantObjectId}`)
    yield* exactlyOne(events, "GrantRevoked")
    return {}
  })
