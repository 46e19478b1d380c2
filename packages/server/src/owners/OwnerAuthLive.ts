import { Effect, Layer, Redacted } from "effect"
import { CurrentOwner, OwnerAuth } from "@gateway/domain/api/OwnerAuth"
import { OwnerSessions } from "./OwnerSessions.ts"

/** Verifies the `Authorization` header and provides the owner; handlers never read headers. */
export const OwnerAuthLive = Layer.effect(
  OwnerAuth,
  Effect.gen(function*() {
    const sessions = yield* OwnerSessions
    return OwnerAuth.of({
      authorization: (httpEffect, { credential }) =>
        sessions.authenticate(Redacted.value(credential)).pipe(
          Effect.flatMap((caller) => Effect.provideService(httpEffect, CurrentOwner, caller))
        )
    })
  })
)
