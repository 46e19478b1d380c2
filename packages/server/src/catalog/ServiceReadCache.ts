import { Context, Effect, Layer } from "effect"
import { CatalogChanges } from "./CatalogChanges.ts"
import type { LiveTerms } from "./LiveTerms.ts"

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

/**
 * How long a read is kept without a change heard: only a bound for a change
 * no replica announced (a replica stopped between its commit and its NOTIFY,
 * or a row changed by hand); every change the catalog makes drops its reads at once.
 */
export const READ_TTL_MS = 30_000
const CAPACITY = 10_000
/** Listings are keyed by their query, which callers choose: the memory they may take is bounded, not only their number. */
const CAPACITY_BYTES = 32 * 1024 * 1024

/** `/v1/services/{id}` and `/v1/services/{id}.md`: the reads whose answers depend on one service only. */
const serviceOfPath = (path: string) => /^\/v1\/services\/([^/.]+)(?:\.md)?$/.exec(path)?.[1]

/** `/llms.txt`: one document over the first live services, whatever the query. */
const LLMS_TXT = "/llms.txt"

/**
 * The cache key of a catalog read (a service's page, a listing with its query, or
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
 * The catalog's one read cache, with one expiry and one invalidation for
 * everything it keeps:
 * - the answered bytes of `GET /v1/services/{id}` (and its `.md`),
 *   `GET /v1/services?…` listings and searches, and `GET /llms.txt`: the app
 *   fills them (CatalogCaching) and only the Node server consults them,
 *   answering a hit before the request becomes an effect fiber (GatewayNodeServer);
 * - each live service's terms, which the catalog consults for what is not a
 *   public read: minting a 402 and forwarding a paid call.
 * Every CatalogChanges event, from this replica or another, drops the changed
 * service's terms and pages, every listing and `/llms.txt`.
 */
export class ServiceReadCache extends Context.Service<ServiceReadCache, {
  get(key: string): CachedRead | undefined
  /** Read before reading the store for something that may be kept: a keep made after an invalidation since is dropped. */
  generation(): number
  put(key: string, read: CachedRead, readAt: number): void
  liveTerms(serviceId: string): LiveTerms | undefined
  keepLiveTerms(serviceId: string, terms: LiveTerms, readAt: number): void
  /** Drops what one service's change affects, or everything when undefined. */
  invalidate(serviceId: string | undefined): void
}>()("@gateway/server/ServiceReadCache") {
  static readonly layer = Layer.effect(
    ServiceReadCache,
    Effect.gen(function*() {
      const reads = new Map<string, CachedRead & { readonly expiresAtMs: number }>()
      const terms = new Map<string, { readonly terms: LiveTerms; readonly expiresAtMs: number }>()
      let bytes = 0
      // Bumped by every invalidation: an answer computed from a read taken before it must not be kept.
      let generation = 0
      const drop = (key: string) => {
        const read = reads.get(key)
        if (read === undefined) return
        bytes -= read.bytes.byteLength
        reads.delete(key)
      }
      const invalidate = (serviceId: string | undefined) => {
        generation += 1
        if (serviceId === undefined) {
          reads.clear()
          terms.clear()
          bytes = 0
          return
        }
        terms.delete(serviceId)
        drop(`/v1/services/${serviceId}`)
        drop(`/v1/services/${serviceId}.md`)
        drop(LLMS_TXT)
        for (const key of reads.keys()) if (isListing(key)) drop(key)
      }
      yield* (yield* CatalogChanges).subscribe(invalidate)
      return ServiceReadCache.of({
        get: (key) => {
          const read = reads.get(key)
          if (read === undefined) return undefined
          if (read.expiresAtMs > Date.now()) return read
          drop(key)
          return undefined
        },
        generation: () => generation,
        put: (key, read, readAt) => {
          if (readAt !== generation || read.bytes.byteLength > CAPACITY_BYTES) return
          drop(key)
          // Oldest first: a Map keeps insertion order.
          for (const oldest of reads.keys()) {
            if (reads.size < CAPACITY && bytes + read.bytes.byteLength <= CAPACITY_BYTES) break
            drop(oldest)
          }
          reads.set(key, { ...read, expiresAtMs: Date.now() + READ_TTL_MS })
          bytes += read.bytes.byteLength
        },
        liveTerms: (serviceId) => {
          const kept = terms.get(serviceId)
          if (kept === undefined) return undefined
          if (kept.expiresAtMs > Date.now()) return kept.terms
          terms.delete(serviceId)
          return undefined
        },
        keepLiveTerms: (serviceId, kept, readAt) => {
          if (readAt !== generation) return
          if (terms.size >= CAPACITY) terms.delete(terms.keys().next().value ?? serviceId)
          terms.set(serviceId, { terms: kept, expiresAtMs: Date.now() + READ_TTL_MS })
        },
        invalidate
      })
    })
  ).pipe(Layer.provideMerge(CatalogChanges.layer))
}
