import { createHash } from "node:crypto"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { CATALOG_CACHE_CONTROL, type CachedRead, holdsCurrent, hotReadKey, ServiceReadCache } from "./ServiceReadCache.ts"

/** A service's public page or its Markdown: `/v1/services/{id}` and `/v1/services/{id}.md`, nothing below them. */
const SERVICE_PAGE = /^\/v1\/services\/[^/]+$/

/**
 * Public reads that callers may cache briefly: the catalog and the agent
 * documents, named one by one, so that an owner's or seller's route under
 * the same prefix (`/manage`, `/payments`) never gets a shared-cache header.
 */
const cacheable = (path: string) =>
  path === "/v1/services" || SERVICE_PAGE.test(path) || path === "/llms.txt" || path === "/SKILL.md" || path === "/.well-known/mcp.json"

const bytesOf = (body: HttpServerResponse.HttpServerResponse["body"]): Uint8Array | undefined =>
  body._tag === "Uint8Array" ? body.body : body._tag === "Raw" && typeof body.body === "string" ? new TextEncoder().encode(body.body) : undefined

const HEADERS = { "cache-control": CATALOG_CACHE_CONTROL }

const answer = (read: CachedRead, ifNoneMatch: string | undefined) =>
  holdsCurrent(ifNoneMatch, read.etag)
    ? HttpServerResponse.empty({ status: 304, headers: { ...HEADERS, etag: read.etag } })
    : HttpServerResponse.uint8Array(read.bytes, { contentType: read.contentType, headers: { ...HEADERS, etag: read.etag } })

/**
 * ETag and Cache-Control on public catalog reads, and 304 when the caller
 * already holds that representation. Five seconds: short enough that an
 * activation shows up quickly, long enough to spare the store a burst. Hot
 * catalog reads answered here are kept in ServiceReadCache, which the Node
 * server answers from until the catalog publishes a change.
 */
export const CatalogCaching = HttpRouter.middleware(
  (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const reads = yield* ServiceReadCache
      const path = new URL(request.url, "http://gateway").pathname
      const ifNoneMatch = request.headers["if-none-match"]
      const hot = request.method === "GET" ? hotReadKey(request.url) : undefined
      const readAt = reads.generation()
      const response = yield* httpEffect
      if (request.method !== "GET" || response.status !== 200 || !cacheable(path)) return response
      const bytes = bytesOf(response.body)
      if (bytes === undefined) return response
      const read = {
        bytes,
        contentType: response.body._tag === "Empty" ? "application/json" : response.body.contentType ?? "application/json",
        etag: `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`
      }
      if (hot !== undefined) reads.put(hot, read, readAt)
      return answer(read, ifNoneMatch)
    }),
  { global: true }
)
