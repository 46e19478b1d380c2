import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Unauthenticated } from "../Errors.ts"
import { Challenge, ChallengeRequest, Session, SessionRequest } from "../OwnerSession.ts"

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("challenge", "/challenge", { payload: ChallengeRequest, success: Challenge, error: Unauthenticated }),
    HttpApiEndpoint.post("session", "/session", { payload: SessionRequest, success: Session, error: Unauthenticated })
  )
  .prefix("/v1/auth")
{}
