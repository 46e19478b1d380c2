import { Effect, Option } from "effect"
import type { Caller } from "./Caller.ts"
import { SessionRepo } from "./SessionRepo.ts"

/** Revokes the session the caller presented; an internal hop has none, so nothing stops working. */
export const signOut = Effect.fn("OwnerSessions.signOut")(function*(caller: Caller) {
  if (Option.isNone(caller.session)) return 0
  return yield* (yield* SessionRepo).deleteSession(caller.session.value)
})
