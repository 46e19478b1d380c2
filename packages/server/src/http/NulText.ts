import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { Invalid } from "@gateway/domain/Errors"
import { errorResponse } from "../httpShared/ErrorBodies.ts"

/**
 * PostgreSQL text cannot hold NUL, so a request carrying one could only fail
 * in the store, where it would read as an outage. It is refused as INVALID
 * before anything runs: in the URL (`%00`) and, for JSON bodies, as a `\u0000`
 * escape (one not itself escaped; raw NUL is not JSON at all).
 */
export const urlHoldsNul = (url: string) => /%00/i.test(url)

export const jsonHoldsNul = (text: string) => /(?:^|[^\\])(?:\\\\)*\\u0000/.test(text)

export const nulInvalid = (where: "url" | "body") =>
  new Invalid({ message: "The request is invalid", reason: `${where}: NUL characters are not accepted` })

/** Every route: a URL holding NUL is INVALID. Bodies are checked where they are parsed (RequestErrorsLive). */
export const RefuseNulUrls = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!urlHoldsNul(request.url)) return yield* httpEffect
      return errorResponse(nulInvalid("url"))
    }),
  { global: true }
)
