import { Effect } from "effect"
import type { Caller } from "./Caller.ts"
import { SessionRepo } from "./SessionRepo.ts"

/** Revokes every session of the caller's owner, wherever it was signed in. */
export const revokeAll = Effect.fn("OwnerSessions.revokeAll")(function*(caller: Caller) {
  return yield* (yield* SessionRepo).deleteSessionsOf(caller.address)
})
