import { createHash } from "node:crypto"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"

/** Public reads that callers may cache briefly: the catalog and the agent documents. */
const cacheable = (path: string) =>
  path === "/v1/services" || (path.startsWith("/v1/services/") && !path.endsWith("/manage")) ||
  path === "/llms.txt" || path === "/SKILL.md" || path === "/.well-known/mcp.json"

const bytesOf = (body: HttpServerResponse.HttpServerResponse["body"]): Uint8Array | undefined =>
  body._tag === "Uint8Array" ? body.body : body._tag === "Raw" && typeof body.body === "string" ? new TextEncoder().encode(body.body) : undefined

/** RFC 9110 If-None-Match: a list of tags compared weakly, or `*` for any. */
const holdsCurrent = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim()
    return t === "*" || t.replace(/^W\//, "") === etag.replace(/^W\//, "")
  })

/**
 * ETag and Cache-Control on public catalog reads, and 304 when the caller
 * already holds that representation. Five seconds: short enough that an
 * activation shows up quickly, long enough to spare the store a burst.
 */
export const CatalogCaching = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const response = yield* httpEffect
      const path = new URL(request.url, "http://gateway").pathname
      if (request.method !== "GET" || response.status !== 200 || !cacheable(path)) return response
      const bytes = bytesOf(response.body)
      if (bytes === undefined) return response
      const etag = `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`
      const headers = { etag, "cache-control": "public, max-age=5" }
      return holdsCurrent(request.headers["if-none-match"], etag)
        ? HttpServerResponse.empty({ status: 304, headers })
        : HttpServerResponse.setHeaders(response, headers)
    }),
  { global: true }
)
