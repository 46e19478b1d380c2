import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { RateLimited } from "@gateway/domain/Errors"
import { Limited } from "../limits/Limited.ts"

/** The `Retry-After` header of a refusal, on whatever response the request ends with. */
export const setRetryAfter = (seconds: number): Effect.Effect<void, never, HttpServerRequest.HttpServerRequest> =>
  HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(seconds))))

/**
 * A handler's `Limited` answered as the spec's body with code RATE_LIMITED (429) and `Retry-After`: the
 * status and body come from the API's error schema, the header from the refusal.
 */
export const answerLimited = <A, E, R>(
  effect: Effect.Effect<A, E | Limited, R>
): Effect.Effect<A, Exclude<E, Limited> | RateLimited, R | HttpServerRequest.HttpServerRequest> =>
  Effect.catchIf(
    effect,
    (error): error is Limited => error instanceof Limited,
    (limited) => Effect.andThen(setRetryAfter(limited.retryAfterSeconds), Effect.fail(new RateLimited({ message: limited.message, reason: limited.reason })))
    // catchIf's result over a generic error type carries effect's internal marker types; this is what it is.
  ) as Effect.Effect<A, Exclude<E, Limited> | RateLimited, R | HttpServerRequest.HttpServerRequest>
