import { Effect, Layer, Option, SchemaIssue } from "effect"
import { HttpMethod, HttpServerRequest } from "effect/http"
import { HttpApiError, type HttpApiEndpoint } from "effect/http-api"
import { Invalid } from "@gateway/domain/Errors"
import { RequestErrors } from "@gateway/domain/api/RequestErrors"
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "./JsonDepth.ts"
import { jsonHoldsNul, nulInvalid } from "./NulText.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const location = { Params: "path", Headers: "headers", Query: "query", Body: "body", Payload: "body", ResponseHeaders: "response" }

/**
 * A request that fails to decode is INVALID, with where it failed in `reason`
 * (e.g. `body.assetScopes.0.asset: Expected ...`), instead of effect's empty 400.
 */
const toInvalid = (error: HttpApiError.HttpApiSchemaError) => {
  const [first] = formatter(error.cause.issue).issues
  const path = (first?.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key)))
  const where = [location[error.kind], ...path].join(".")
  return Effect.fail(
    new Invalid({ message: "The request is invalid", reason: `${where}: ${first?.message ?? "invalid value"}` })
  )
}

const tooDeep = new Invalid({ message: "The request is invalid", reason: `body: nested deeper than ${MAX_JSON_DEPTH} levels` })

/** Whether effect will parse this request's body as JSON for this endpoint; like effect, a missing content type counts as JSON. */
const parsesJson = (endpoint: HttpApiEndpoint.Top, request: HttpServerRequest.HttpServerRequest) => {
  if (!HttpMethod.hasBody(request.method)) return false
  const mediaType = (request.headers["content-type"] ?? "application/json").split(";")[0]?.trim().toLowerCase() ?? ""
  return endpoint.payload.get(mediaType)?.encoding._tag === "Json"
}

/**
 * A JSON body nested deeper than MAX_JSON_DEPTH is INVALID before effect
 * parses it or any schema decodes it (both recurse once per level). The body
 * is read once and cached, so the decoder reads the same bytes; a body that
 * cannot be read is left to the decoder, which refuses it as before.
 */
const depthCap = (endpoint: HttpApiEndpoint.Top) =>
  HttpServerRequest.HttpServerRequest.use((request) =>
    parsesJson(endpoint, request)
      ? Effect.flatMap(
        Effect.option(request.text),
        (text) =>
          Option.isNone(text)
            ? Effect.void
            : exceedsJsonDepth(text.value, MAX_JSON_DEPTH)
            ? Effect.fail(tooDeep)
            : jsonHoldsNul(text.value)
            ? Effect.fail(nulInvalid("body"))
            : Effect.void
      )
      : Effect.void)

/** API-wide: the depth cap and NUL check first, then decoding failures rendered as INVALID. */
export const RequestErrorsLive = Layer.succeed(RequestErrors, (httpEffect, { endpoint }) =>
  Effect.andThen(depthCap(endpoint), httpEffect).pipe(
    Effect.catch((error) => (HttpApiError.HttpApiSchemaError.is(error) ? toInvalid(error) : Effect.fail(error)))
  ))
