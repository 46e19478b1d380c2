import { Context, Layer } from "effect"

/** The headers every public catalog read carries besides its ETag. */
export const CATALOG_CACHE_CONTROL = "public, max-age=5"

/** RFC 9110 If-None-Match: a list of tags compared weakly, or `*` for any. */
export const holdsCurrent = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim()
    return t === "*" || t.replace(/^W\//, "") === etag.replace(/^W\//, "")
  })

/** A public catalog read as it was answered: body, its media type and ETag. */
export interface CachedRead {
  readonly bytes: Uint8Array
  readonly contentType: string
  readonly etag: string
}

/** How long a service's page is served from memory; the same second the catalog's own cache keeps. */
export const READ_TTL_MS = 1_000
const CAPACITY = 10_000

/** `/v1/services/{id}` and `/v1/services/{id}.md`: the reads whose answers depend on one service only. */
const serviceOfPath = (path: string) => /^\/v1\/services\/([^/.]+)(?:\.md)?$/.exec(path)?.[1]

/** `/llms.txt`: one document over the first live services, whatever the query. */
const LLMS_TXT = "/llms.txt"

/**
 * The cache key of a hot read (a service's page, a listing with its query, or
 * `/llms.txt`) from the request's own URL as it arrived, or undefined for any other request.
 * Both the app that fills the cache and the Node server that answers from it
 * key by this, so they cannot disagree about which request a read belongs to.
 */
export const hotReadKey = (url: string) => {
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  return serviceOfPath(path) !== undefined || path === LLMS_TXT ? path : path === "/v1/services" ? url : undefined
}

const isListing = (key: string) => key === "/v1/services" || key.startsWith("/v1/services?")

/**
 * The answered bytes of the hottest reads, `GET /v1/services/{id}` (and its
 * `.md`), `GET /v1/services?…` listings and `GET /llms.txt`, kept for a second
 * of wall time so a hit is answered by the Node server itself, before effect's
 * pipeline (GatewayNodeServer). This replica's activation of a service drops
 * that service's pages, every listing and `/llms.txt` at once; another
 * replica's shows within the second, as with the catalog's own cache.
 */
export class ServiceReadCache extends Context.Service<ServiceReadCache, {
  get(key: string): CachedRead | undefined
  /** Read before answering a request whose bytes may be kept: a `put` made after an invalidation since is dropped. */
  generation(): number
  put(key: string, read: CachedRead, readAt: number): void
  invalidate(serviceId: string): void
}>()("@gateway/server/ServiceReadCache") {
  static readonly layer = Layer.sync(ServiceReadCache, () => {
    const reads = new Map<string, CachedRead & { readonly expiresAtMs: number }>()
    // Bumped by every invalidation: an answer computed from a read taken before it must not be kept.
    let generation = 0
    return ServiceReadCache.of({
      get: (key) => {
        const read = reads.get(key)
        if (read === undefined) return undefined
        if (read.expiresAtMs > Date.now()) return read
        reads.delete(key)
        return undefined
      },
      generation: () => generation,
      put: (key, read, readAt) => {
        if (readAt !== generation) return
        // Oldest first: a Map keeps insertion order.
        if (reads.size >= CAPACITY) reads.delete(reads.keys().next().value ?? key)
        reads.set(key, { ...read, expiresAtMs: Date.now() + READ_TTL_MS })
      },
      invalidate: (serviceId) => {
        generation += 1
        reads.delete(`/v1/services/${serviceId}`)
        reads.delete(`/v1/services/${serviceId}.md`)
        reads.delete(LLMS_TXT)
        for (const key of reads.keys()) if (isListing(key)) reads.delete(key)
      }
    })
  })
}
