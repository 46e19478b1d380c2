import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Internal, Invalid, isApiError } from "@gateway/domain/Errors"
import { answerLimited } from "../httpShared/RetryAfter.ts"
import { PaidCalls } from "./PaidCalls.ts"
import { errorResponse } from "../httpShared/ErrorBodies.ts"

/**
 * The paid-call address of every live service, `/v1/pay/{serviceId}`, for any
 * method. It proxies raw bodies, so it is a plain route beside the HttpApi.
 */
export const PaidCallRoute = HttpRouter.add(
  "*",
  "/v1/pay/:serviceId",
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const paidCalls = yield* PaidCalls
    // A body that cannot be read whole (over the size cap, or cut off) is refused before anything is minted or verified.
    const body = request.method === "GET" || request.method === "HEAD"
      ? Effect.succeed(new Uint8Array())
      : Effect.mapBoth(request.arrayBuffer, {
        onFailure: () => new Invalid({ message: "The request body could not be read whole", reason: "body_too_large_or_unreadable" }),
        onSuccess: (buffer) => new Uint8Array(buffer)
      })
    const url = new URL(request.url, "http://gateway")
    const result = yield* Effect.flatMap(body, (bytes) =>
      paidCalls.handle({
        serviceId: params["serviceId"] ?? "",
        method: request.method,
        search: url.search,
        headers: request.headers,
        body: bytes,
        clientAddress: Option.getOrUndefined(request.remoteAddress)
      })
    ).pipe(
      Effect.map((r) => {
        switch (r._tag) {
          case "PaymentRequired":
            return HttpServerResponse.text(r.body, { status: 402, headers: r.headers, contentType: "application/json" })
          case "Forwarded":
            return HttpServerResponse.uint8Array(r.body, { status: r.status, headers: r.headers })
          case "MethodNotAllowed":
            // INVALID's body, under 405 and `Allow`: the status says what HTTP clients and caches expect.
            return errorResponse(new Invalid({ message: `This service is called with ${r.allow.join(" or ")}`, reason: "method_not_allowed" })).pipe(
              HttpServerResponse.setStatus(405),
              HttpServerResponse.setHeader("allow", r.allow.join(", "))
            )
        }
      }),
      answerLimited,
      Effect.catch((error) =>
        Effect.succeed(errorResponse(isApiError(error) ? error : new Internal({ message: "An unexpected error occurred", reason: "internal_error" })))
      )
    )
    return result
  })
)
