import { HttpApiMiddleware } from "effect/http-api"
import { Internal, Invalid, Unavailable } from "../Errors.ts"

/**
 * API-wide middleware: request decoding failures become INVALID with the
 * failing path, and every endpoint may answer UNAVAILABLE or the generic
 * INTERNAL body.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("@gateway/domain/RequestErrors", {
  error: [Invalid, Unavailable, Internal]
}) {}
