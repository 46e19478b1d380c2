import { Cause, Effect, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ApiError, httpStatus, Internal, Invalid, NotFound, Unauthenticated, Unavailable } from "@gateway/domain/Errors"

type ErrorBody = Internal | Invalid | NotFound | Unauthenticated | Unavailable

/**
 * The spec's error body for any of our errors, for routes that answer outside
 * the HttpApi (which encodes its own). It leaves with its code's spec status,
 * whatever status effect chose, so the two always agree.
 */
export const errorResponse = (error: ApiError) =>
  HttpServerResponse.jsonUnsafe({ ok: false, code: error.code, message: error.message, reason: error.reason }, { status: httpStatus[error.code] })


/**
 * The spec body for a status that effect answered with an empty body. A
 * method the path does not serve names no resource (NOT_FOUND); any status
 * none of our codes covers is INTERNAL.
 */
const bodyFor = (status: number): ErrorBody => {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return new Invalid({ message: "The request is invalid", reason: status === 413 ? "body_too_large" : "malformed_request" })
    case 401:
      return new Unauthenticated({ message: "A verified owner session is required", reason: "missing_owner_session" })
    case 404:
    case 405:
      return new NotFound({ message: "No such resource", reason: "unknown_route" })
    case 503:
      return new Unavailable({ message: "A dependency is unavailable", reason: "unavailable" })
    default:
      return new Internal({ message: "An unexpected error occurred", reason: "internal_error" })
  }
}

const isJson = (response: HttpServerResponse.HttpServerResponse) =>
  (response.body._tag === "Empty" ? "" : response.body.contentType ?? "").startsWith("application/json")

/**
 * A failure effect answered without the spec body (empty, or plain text like
 * "Unsupported Media Type") gets it. Paid calls are left alone: their 4xx
 * bodies may be the seller's own answer, forwarded as it came.
 */
const withBody = (path: string) => (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && !isJson(response) && !path.startsWith("/v1/pay/")
    ? errorResponse(bodyFor(response.status))
    : response

/**
 * Every failure leaves as `{ ok: false, code, message, reason }`: unknown
 * routes, unparsable requests, and defects (logged here, answered with a
 * generic body that leaks no stack). A request interrupted because its
 * caller disconnected is not a defect and is not logged as one.
 */
export const ErrorBodies = HttpRouter.middleware(
  (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
    httpEffect.pipe(
      Effect.catchCause((cause) => {
        // A caller that hung up is no failure of ours: the interruption goes on
        // to the access log, which records it at Info (status 499).
        if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
        const failure = Cause.squash(cause)
        if (failure instanceof HttpServerError.HttpServerError) {
          const reason = failure.reason
          if (reason._tag === "RouteNotFound") return Effect.succeed(errorResponse(bodyFor(404)))
          if (reason._tag === "RequestParseError") {
            return Effect.succeed(errorResponse(bodyFor(reason.reason === "BodyTooLarge" ? 413 : 400)))
          }
        }
        return Effect.logError("unhandled request failure", Cause.pretty(cause)).pipe(
          Effect.as(errorResponse(bodyFor(500)))
        )
      }),
      Effect.flatMap((response) =>
        HttpServerRequest.HttpServerRequest.useSync((request) => withBody(new URL(request.url, "http://gateway").pathname)(response)))
    ),
  { global: true }
)
