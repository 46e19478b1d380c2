import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { OwnerSessions } from "./OwnerSessions.ts"

/**
 * The client the sign-in brake counts is the socket's peer. X-Forwarded-For is
 * not read here: behind a proxy, trusting it is the server's decision
 * (effect's `xForwardedHeaders` middleware rewrites `remoteAddress` for
 * trusted proxies only), so a caller cannot pick its own identity.
 */
const clientOf = (remoteAddress: Option.Option<string>) => Option.getOrElse(remoteAddress, () => "unknown")

export const AuthHandlers = HttpApiBuilder.group(
  Api,
  "auth",
  Effect.fn(function*(handlers) {
    const sessions = yield* OwnerSessions
    return handlers
      .handle("challenge", ({ payload, request }) => sessions.challenge(payload.address, clientOf(request.remoteAddress)))
      .handle("session", ({ payload, request }) =>
        sessions.signIn(payload.message, payload.signature, clientOf(request.remoteAddress)))
      .handle("signOut", () => CurrentOwner.use((caller) => Effect.map(sessions.signOut(caller), (revoked) => ({ revoked }))))
      .handle("revokeAll", () => CurrentOwner.use((caller) => Effect.map(sessions.revokeAll(caller), (revoked) => ({ revoked }))))
  })
)
