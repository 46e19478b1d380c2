import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { RateLimited, Unauthenticated } from "../Errors.ts"
import { Challenge, ChallengeRequest, Revoked, Session, SessionRequest } from "../OwnerSession.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("challenge", "/challenge", { payload: ChallengeRequest, success: Challenge, error: [Unauthenticated, RateLimited] }).annotateMerge(OpenApi.annotations({
      summary: "Start an owner sign-in",
      description: "Returns a single-use sign-in message for the wallet address to sign with signPersonalMessage; it expires after CHALLENGE_TTL_MS. One client may ask SIGN_IN_CHALLENGES_PER_MINUTE times a minute across all replicas; past that 429 RATE_LIMITED with Retry-After."
    })),
    HttpApiEndpoint.post("session", "/session", { payload: SessionRequest, success: Session, error: [Unauthenticated, RateLimited] }).annotateMerge(OpenApi.annotations({
      summary: "Finish an owner sign-in",
      description: "Exchanges the signed sign-in message for an owner session token, sent afterwards as Authorization: Bearer <token>."
    })),
    /** Sign-out: the session this request carries stops working. */
    HttpApiEndpoint.delete("signOut", "/session", { success: Revoked }).middleware(OwnerAuth).annotateMerge(OpenApi.annotations({
      summary: "Sign out",
      description: "Revokes the session this request carries."
    })),
    /** Every session of the calling owner stops working, this one included. */
    HttpApiEndpoint.delete("revokeAll", "/sessions", { success: Revoked }).middleware(OwnerAuth).annotateMerge(OpenApi.annotations({
      summary: "Sign out everywhere",
      description: "Revokes every session of the calling owner, this one included."
    }))
  )
  .prefix("/v1/auth")
{}
