import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { clientKey } from "@gateway/domain/limits/ClientKey"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { answerLimited } from "../httpShared/RetryAfter.ts"
import { OwnerSessions } from "./OwnerSessions.ts"

/**
 * The client the sign-in limit counts is the request's remote address: the socket's peer, or behind a
 * proxy in TRUSTED_PROXIES the client its X-Forwarded-For names (effect's `xForwardedHeaders`, applied
 * in `Server.ts` for trusted proxies only), so a caller cannot pick its own identity; an IPv6 client by its /64.
 */
const clientOf = (remoteAddress: Option.Option<string>) => clientKey(Option.getOrUndefined(remoteAddress))

export const AuthHandlers = HttpApiBuilder.group(
  Api,
  "auth",
  Effect.fn(function*(handlers) {
    const sessions = yield* OwnerSessions
    return handlers
      .handle("challenge", ({ payload, request }) => answerLimited(sessions.challenge(payload.address, clientOf(request.remoteAddress))))
      .handle("session", ({ payload, request }) =>
        answerLimited(sessions.signIn(payload.message, payload.signature, clientOf(request.remoteAddress))))
      .handle("signOut", () => CurrentOwner.use((caller) => Effect.map(sessions.signOut(caller), (revoked) => ({ revoked }))))
      .handle("revokeAll", () => CurrentOwner.use((caller) => Effect.map(sessions.revokeAll(caller), (revoked) => ({ revoked }))))
  })
)
