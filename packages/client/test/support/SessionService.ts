import { Effect } from "effect"
import { sessionService as serverSessionService } from "../../../server/test/support/SessionScenario.ts"

export { PRICE } from "../../../server/test/support/SessionScenario.ts"

/**
 * The server tests' session service (a live service at PRICE, its seller signed in, a fresh agent with a grant of
 * `budget`), with the manifest's grant: nothing is opened yet, the agent opens its sessions itself.
 */
export const sessionService = (budget = 10_000n, expiresAt?: number) =>
  Effect.gen(function*() {
    const service = yield* serverSessionService({ budget, ...(expiresAt === undefined ? {} : { expiresAt }) })
    const grant = service.manifest.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant in the manifest")
    return { ...service, grant }
  })

/** The seller's listing of the sessions that paid its service. */
export const sellerSessions = (s: Effect.Success<ReturnType<typeof sessionService>>) =>
  s.client.sellers.sessions({ params: { id: s.entry.id } }).pipe(s.seller, Effect.map((listed) => listed.sessions))
