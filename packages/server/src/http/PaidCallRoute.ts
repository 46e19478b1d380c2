import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { httpStatus, Internal, isApiError } from "@gateway/domain/Errors"
import { PaidCalls } from "../services/PaidCalls.ts"

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
    const body = request.method === "GET" || request.method === "HEAD"
      ? new Uint8Array()
      : new Uint8Array(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
    const url = new URL(request.url, "http://gateway")
    const result = yield* paidCalls.handle({
      serviceId: params["serviceId"] ?? "",
      method: request.method,
      search: url.search,
      headers: request.headers,
      body
    }).pipe(
      Effect.map((r) =>
        r._tag === "PaymentRequired"
          ? HttpServerResponse.jsonUnsafe(r.body, { status: 402, headers: r.headers })
          : HttpServerResponse.uint8Array(r.body, { status: r.status, headers: r.headers })
      ),
      Effect.catch((error) => {
        const known = isApiError(error) ? error : new Internal({ message: "An unexpected error occurred", reason: "internal_error" })
        return Effect.succeed(HttpServerResponse.jsonUnsafe(
          { ok: false, code: known.code, message: known.message, reason: known.reason },
          { status: httpStatus[known.code] }
        ))
      })
    )
    return result
  })
)
