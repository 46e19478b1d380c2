import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { PaymentSessionRepo } from "./PaymentSessionRepo.ts"

/**
 * The gateway's view of the grants its live sessions draw on, from the chain: an owner may pause or revoke a
 * grant in their own wallet, without the console. A grant halted on chain stops its sessions' vouchers here,
 * and a halted grant's sessions are claimed at the next round: its owner may now ask to close them within the grace.
 */
export const watchSessionGrants = Effect.fn("Sessions.watchGrants")(function*() {
  const repo = yield* PaymentSessionRepo
  const ids = yield* repo.liveGrants
  if (ids.length === 0) return
  const grants = yield* (yield* Chain).readGrants(ids)
  yield* Effect.forEach(grants, (g) => repo.setGrantHalt(g.grantObjectId, g.revoked ? "revoked" : g.paused ? "paused" : null), { discard: true })
})
