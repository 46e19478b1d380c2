import { Clock, Effect, Option } from "effect"
import type { Caller } from "./Caller.ts"
import { verifyInternalHop } from "./InternalHop.ts"
import { unauthenticated } from "./SessionErrors.ts"
import { SessionRepo } from "./SessionRepo.ts"
import { tokenHashOf } from "./SessionToken.ts"

/** The caller an `Authorization` header names: a live session's bearer token, or a trusted internal hop. */
export const authenticate = Effect.fn("OwnerSessions.authenticate")(function*(authorization: string) {
  const [scheme = "", credential = "", ...rest] = authorization.trim().split(/\s+/)
  if (rest.length > 0 || credential === "") return yield* unauthenticated("missing_owner_session")
  switch (scheme) {
    case "Bearer": {
      const tokenHash = tokenHashOf(credential)
      const address = yield* (yield* SessionRepo).findSession(tokenHash, new Date(yield* Clock.currentTimeMillis))
      if (Option.isNone(address)) return yield* unauthenticated("unknown_or_expired_session")
      const caller: Caller = { address: address.value, session: Option.some(tokenHash) }
      return caller
    }
    case "Internal":
      return yield* verifyInternalHop(credential)
    default:
      return yield* unauthenticated("unsupported_authorization_scheme")
  }
})
