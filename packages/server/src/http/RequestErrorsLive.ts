import { Effect, SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { Invalid } from "@gateway/domain/Errors"
import { RequestErrors } from "@gateway/domain/api/RequestErrors"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const location = { Params: "path", Headers: "headers", Query: "query", Body: "body", Payload: "body", ResponseHeaders: "response" }

/**
 * A request that fails to decode is INVALID, with where it failed in `reason`
 * (e.g. `body.assetScopes.0.asset: Expected ...`), instead of effect's empty 400.
 */
export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) => {
  const [first] = formatter(error.cause.issue).issues
  const path = (first?.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key)))
  const where = [location[error.kind], ...path].join(".")
  return Effect.fail(
    new Invalid({ message: "The request is invalid", reason: `${where}: ${first?.message ?? "invalid value"}` })
  )
})
