import { Cause, Effect, Schema, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Internal, Invalid, NotFound, Unauthenticated, Unavailable } from "@gateway/domain/Errors"

type ErrorBody = Internal | Invalid | NotFound | Unauthenticated | Unavailable

const respond = (status: number, error: ErrorBody) =>
  HttpServerResponse.jsonUnsafe(Schema.encodeSync(Schema.Union([Internal, Invalid, NotFound, Unauthenticated, Unavailable]))(error), { status })

/** The spec body for a status that effect answered with an empty body. */
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

/** INVALID is 400 whatever effect chose (413 for a large body), as the spec's table says. */
const specStatus = (status: number) => (status === 413 || status === 415 ? 400 : status)

const isJson = (response: HttpServerResponse.HttpServerResponse) =>
  (response.body._tag === "Empty" ? "" : response.body.contentType ?? "").startsWith("application/json")

/**
 * A failure effect answered without the spec body (empty, or plain text like
 * "Unsupported Media Type") gets it. Paid calls are left alone: their 4xx
 * bodies may be the seller's own answer, forwarded as it came.
 */
const withBody = (path: string) => (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && !isJson(response) && !path.startsWith("/v1/pay/")
    ? respond(specStatus(response.status), bodyFor(response.status))
    : response

/**
 * Every failure leaves as `{ ok: false, code, message, reason }`: unknown
 * routes, unparsable requests, and defects (logged here, answered with a
 * generic body that leaks no stack).
 */
export const ErrorBodies = HttpRouter.middleware(
  (httpEffect): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
    httpEffect.pipe(
      Effect.catchCause((cause) => {
        const failure = Cause.squash(cause)
        if (failure instanceof HttpServerError.HttpServerError) {
          const reason = failure.reason
          if (reason._tag === "RouteNotFound") return Effect.succeed(respond(404, bodyFor(404)))
          if (reason._tag === "RequestParseError") {
            return Effect.succeed(respond(400, bodyFor(reason.reason === "BodyTooLarge" ? 413 : 400)))
          }
        }
        return Effect.logError("unhandled request failure", Cause.pretty(cause)).pipe(
          Effect.as(respond(500, bodyFor(500)))
        )
      }),
      Effect.flatMap((response) =>
        HttpServerRequest.HttpServerRequest.useSync((request) => withBody(new URL(request.url, "http://gateway").pathname)(response)))
    ),
  { global: true }
)
