import { createHash } from "node:crypto"
import { Clock, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type CachedRead, hotReadKey, ServiceReadCache } from "../services/ServiceReadCache.ts"

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

const HEADERS = { "cache-control": "public, max-age=5" }

const answer = (read: CachedRead, ifNoneMatch: string | undefined) =>
  holdsCurrent(ifNoneMatch, read.etag)
    ? HttpServerResponse.empty({ status: 304, headers: { ...HEADERS, etag: read.etag } })
    : HttpServerResponse.uint8Array(read.bytes, { contentType: read.contentType, headers: { ...HEADERS, etag: read.etag } })

/**
 * ETag and Cache-Control on public catalog reads, and 304 when the caller
 * already holds that representation. Five seconds: short enough that an
 * activation shows up quickly, long enough to spare the store a burst. A
 * service's own page is answered from ServiceReadCache while it is fresh.
 */
export const CatalogCaching = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const reads = yield* ServiceReadCache
      const url = new URL(request.url, "http://gateway")
      const path = url.pathname
      const ifNoneMatch = request.headers["if-none-match"]
      const hot = request.method === "GET" ? hotReadKey(path, url.search) : undefined
      if (hot !== undefined) {
        const cached = reads.get(hot, yield* Clock.currentTimeMillis)
        if (cached !== undefined) return answer(cached, ifNoneMatch)
      }
      const response = yield* httpEffect
      if (request.method !== "GET" || response.status !== 200 || !cacheable(path)) return response
      const bytes = bytesOf(response.body)
      if (bytes === undefined) return response
      const read = {
        bytes,
        contentType: response.body._tag === "Empty" ? "application/json" : response.body.contentType ?? "application/json",
        etag: `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`
      }
      if (hot !== undefined) reads.put(hot, read, yield* Clock.currentTimeMillis)
      return answer(read, ifNoneMatch)
    }),
  { global: true }
)
