import { Context, Duration, Effect, Layer, Schedule } from "effect"
import type { Unauthenticated, Unavailable } from "@gateway/domain/Errors"
import type { Challenge, Session } from "@gateway/domain/OwnerSession"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { authenticate } from "./Authenticate.ts"
import type { Caller } from "./Caller.ts"
import { issueChallenge } from "./IssueChallenge.ts"
import { revokeAll } from "./RevokeAll.ts"
import { SessionRepo } from "./SessionRepo.ts"
import { signIn } from "./SignIn.ts"
import type { ClientAddress } from "./SignInLimits.ts"
import { signOut } from "./SignOut.ts"
import { sweepSignIns } from "./SweepSignIns.ts"
import { withServices } from "../UseCase.ts"

/** What the use cases take from their context. */
type UseCaseServices = AppConfig | SessionRepo | PublicUrl | RateLimits

/**
 * Sign-In-With-Sui: a challenge the wallet signs as a personal message, then an
 * opaque bearer token stored only as its hash. Also verifies trusted internal
 * hops. Any other credential is UNAUTHENTICATED.
 *
 * Two limits, so nobody can spend another's budget: asking for a challenge
 * (and failing to sign in) costs the asking client's budget
 * (`signInChallengesPerMinute`), and only a verified signature costs the
 * address's (`signInPerMinute`), which only that address's key can spend.
 * Both are counted in the store, so they hold across replicas.
 * Expired challenges, sessions and internal-hop records are deleted every
 * `storeSweepIntervalMs` while the service runs, on every replica (the
 * deletes are idempotent, so replicas sweeping at once is harmless).
 */
export class OwnerSessions extends Context.Service<OwnerSessions, {
  challenge(address: SuiAddress, client: ClientAddress): Effect.Effect<typeof Challenge.Type, Limited | Unavailable>
  signIn(message: string, signature: string, client: ClientAddress): Effect.Effect<Session, Unauthenticated | Limited | Unavailable>
  authenticate(authorization: string): Effect.Effect<Caller, Unauthenticated | Unavailable>
  /** Revokes the session the caller presented; how many sessions stopped working (0 for an internal hop). */
  signOut(caller: Caller): Effect.Effect<number, Unavailable>
  /** Revokes every session of the caller's owner. */
  revokeAll(caller: Caller): Effect.Effect<number, Unavailable>
}>()("@gateway/server/OwnerSessions") {
  static readonly layer = Layer.effect(
    OwnerSessions,
    Effect.gen(function*() {
      // Only these services, so each call keeps its own clock, tracer and parent span.
      const services = Context.pick(AppConfig, SessionRepo, PublicUrl, RateLimits)(yield* Effect.context<UseCaseServices>())
      const provided = withServices(services)
      const config = yield* AppConfig
      yield* Effect.forkScoped(Effect.repeat(provided(sweepSignIns)(), Schedule.spaced(Duration.millis(config.storeSweepIntervalMs))))
      return OwnerSessions.of({
        challenge: provided(issueChallenge),
        signIn: provided(signIn),
        authenticate: provided(authenticate),
        signOut: provided(signOut),
        revokeAll: provided(revokeAll)
      })
    })
  )
}
