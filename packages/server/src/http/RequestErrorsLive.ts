import { Effect, Layer, Option, SchemaIssue } from "effect"
import { HttpMethod, HttpServerRequest } from "effect/http"
import { HttpApiError, type HttpApiEndpoint } from "effect/http-api"
import { Invalid } from "@gateway/domain/Errors"
import { RequestErrors } from "@gateway/domain/api/RequestErrors"
import { jsonShapeOver, MAX_JSON_ARRAY_ITEMS, MAX_JSON_DEPTH } from "./JsonShape.ts"
import { jsonHoldsNul, nulInvalid } from "./NulText.ts"
import { privateKeyPath } from "../secrets/PrivateKeys.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const location = { Params: "path", Headers: "headers", Query: "query", Body: "body", Payload: "body", ResponseHeaders: "response" }

/** Where each schema issue is and what it says; never the offending value. */
const describe = (kind: keyof typeof location, issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  formatter(issue).issues.map((one) => {
    const path = (one.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key)))
    return `${[location[kind], ...path].join(".")}: ${one.message}`
  })

/** The most decoding issues one answer lists. */
const MAX_ISSUES_LISTED = 20

/**
 * A request that fails to decode is INVALID, with where it failed in `reason`
 * (e.g. `body.assetScopes.0.asset: Expected ...`), instead of effect's empty 400.
 * An endpoint decoding with `errors: "all"` has every invalid field listed at
 * once (`; `-separated), so a caller fixes them in one round; the message
 * names the fields.
 */
const toInvalid = (error: HttpApiError.HttpApiSchemaError) => {
  const all = describe(error.kind, error.cause.issue)
  // A body can hold hundreds of wrong fields (unknown keys, say): the answer lists the first ones and counts the rest.
  const issues = all.slice(0, MAX_ISSUES_LISTED)
  const more = all.length > issues.length ? `; and ${all.length - issues.length} more` : ""
  const fields = [...new Set(issues.map((line) => line.slice(0, line.indexOf(":"))))]
  return Effect.fail(
    new Invalid({
      message: issues.length === 0 ? "The request is invalid" : `The request is invalid: fix ${fields.join(", ")}${more} (see reason)`,
      reason: issues.length === 0 ? `${location[error.kind]}: invalid value` : `${issues.join("; ")}${more}`
    })
  )
}

const invalid = (reason: string) => new Invalid({ message: "The request is invalid", reason })

const tooDeep = invalid(`body: nested deeper than ${MAX_JSON_DEPTH} levels`)

const tooLong = invalid(`body: an array holds more than ${MAX_JSON_ARRAY_ITEMS} items; no field takes that many`)

/** The refusal of a body whose shape goes over a bound, if it does. */
const shapeRefusal = (text: string) => {
  const over = jsonShapeOver(text, { depth: MAX_JSON_DEPTH, items: MAX_JSON_ARRAY_ITEMS })
  return over === "depth" ? Effect.fail(tooDeep) : over === "items" ? Effect.fail(tooLong) : undefined
}

const mediaTypeOf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "application/json").split(";")[0]?.trim().toLowerCase() ?? ""

/** The JSON payload schemas effect will decode this request's body with; none when it parses no JSON (like effect, a missing content type counts as JSON). */
const jsonSchemas = (endpoint: HttpApiEndpoint.Top, request: HttpServerRequest.HttpServerRequest) => {
  if (!HttpMethod.hasBody(request.method)) return undefined
  const payload = endpoint.payload.get(mediaTypeOf(request))
  return payload?.encoding._tag === "Json" ? payload.schemas : undefined
}

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

/** A JSON body's check that precedes any decoding: key-shaped values. Malformed JSON is the decoder's to refuse, as before. */
const checkJson = (text: string) =>
  Option.match(parseJson(text), {
    onNone: () => Effect.void,
    onSome: (parsed) => {
      const keyAt = privateKeyPath(parsed, "body")
      return keyAt === undefined ? Effect.void : Effect.fail(invalid(`${keyAt}: looks like a private key; keys never leave the wallet`))
    }
  })

/**
 * Every JSON body, before effect parses it or any schema decodes it: nested
 * deeper than MAX_JSON_DEPTH (both recurse once per level), an array longer than
 * MAX_JSON_ARRAY_ITEMS (decoded with every issue reported, each item costs), holding NUL,
 * holding something shaped like a private key (refused by path, never
 * echoed, before anything can store or log it) is INVALID; a field the
 * endpoint does not declare is refused by the decoder (`Api`'s parse options). The body is read once and cached,
 * so the decoder reads the same bytes; a body that cannot be read is left to
 * the decoder, which refuses it as before.
 */
const bodyChecks = (endpoint: HttpApiEndpoint.Top) =>
  HttpServerRequest.HttpServerRequest.use((request) => {
    const schemas = jsonSchemas(endpoint, request)
    if (schemas === undefined) return Effect.void
    return Effect.flatMap(
      Effect.option(request.text),
      (text) => {
        if (Option.isNone(text) || text.value === "") return Effect.void
        return shapeRefusal(text.value) ?? (jsonHoldsNul(text.value) ? Effect.fail(nulInvalid("body")) : checkJson(text.value))
      }
    )
  })

/** API-wide: the body checks first, then decoding failures rendered as INVALID. */
export const RequestErrorsLive = Layer.succeed(RequestErrors, (httpEffect, { endpoint }) =>
  Effect.andThen(bodyChecks(endpoint), httpEffect).pipe(
    Effect.catch((error) => (HttpApiError.HttpApiSchemaError.is(error) ? toInvalid(error) : Effect.fail(error)))
  ))
