import { Clock, Effect } from "effect"
import { SessionRepo } from "./SessionRepo.ts"

/** Deletes the challenges, sessions and internal-hop records that have expired. Idempotent, so every replica runs it. */
export const sweepSignIns = Effect.fn("OwnerSessions.sweep")(function*() {
  const swept = yield* (yield* SessionRepo).deleteExpired(new Date(yield* Clock.currentTimeMillis))
  if (swept.challenges + swept.sessions + swept.internalHops > 0) yield* Effect.logDebug("expired sign-in records deleted", swept)
}, (sweep) =>
  // An outage is already logged by the store; the next sweep tries again.
  Effect.ignore(sweep))
