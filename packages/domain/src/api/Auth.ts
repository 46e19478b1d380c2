import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Unauthenticated } from "../Errors.ts"
import { Challenge, ChallengeRequest, Revoked, Session, SessionRequest } from "../OwnerSession.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("challenge", "/challenge", { payload: ChallengeRequest, success: Challenge, error: Unauthenticated }),
    HttpApiEndpoint.post("session", "/session", { payload: SessionRequest, success: Session, error: Unauthenticated }),
    /** Sign-out: the session this request carries stops working. */
    HttpApiEndpoint.delete("signOut", "/session", { success: Revoked }).middleware(OwnerAuth),
    /** Every session of the calling owner stops working, this one included. */
    HttpApiEndpoint.delete("revokeAll", "/sessions", { success: Revoked }).middleware(OwnerAuth)
  )
  .prefix("/v1/auth")
{}
