import { Context, type Option } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Unauthenticated, Unavailable } from "../Errors.ts"
import type { SuiAddress } from "../SuiAddress.ts"

/**
 * The owner whose verified session (or trusted internal hop) made this
 * request, and that session's store key (the token's hash; none for an
 * internal hop), so the session can be revoked without handlers seeing the token.
 */
export class CurrentOwner extends Context.Service<CurrentOwner, {
  readonly address: SuiAddress
  readonly session: Option.Option<string>
}>()(
  "@gateway/domain/CurrentOwner"
) {}

/**
 * The owner session travels in `Authorization` as `Bearer <token>` or
 * `Internal <address>.<ms>.<hmac>`; the middleware reads the raw header and
 * decides, so handlers never see it.
 */
export class OwnerAuth extends HttpApiMiddleware.Service<OwnerAuth, { provides: CurrentOwner }>()(
  "@gateway/domain/OwnerAuth",
  {
    requiredForClient: true,
    security: { authorization: HttpApiSecurity.apiKey({ key: "Authorization", in: "header" }) },
    error: [Unauthenticated, Unavailable]
  }
) {}
