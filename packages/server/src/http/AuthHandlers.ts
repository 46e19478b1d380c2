import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { OwnerSessions } from "../services/OwnerSessions.ts"

export const AuthHandlers = HttpApiBuilder.group(
  Api,
  "auth",
  Effect.fn(function*(handlers) {
    const sessions = yield* OwnerSessions
    return handlers
      .handle("challenge", ({ payload }) => sessions.challenge(payload.address))
      .handle("session", ({ payload }) => sessions.signIn(payload.message, payload.signature))
  })
)
