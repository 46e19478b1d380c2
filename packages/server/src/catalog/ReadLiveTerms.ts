import { Effect, Option } from "effect"
import { CatalogRepo } from "./CatalogRepo.ts"
import type { LiveTerms } from "./LiveTerms.ts"
import { entryOf, entrySite } from "./ServiceEntry.ts"
import { ServiceReadCache } from "./ServiceReadCache.ts"
import { unknownService } from "./UnknownService.ts"

/**
 * A live service's terms at its active revision; NOT_FOUND for a draft or an unknown one.
 * Kept until the service changes: these are read for every 402 and paid call, not only public reads.
 */
export const readLiveTerms = Effect.fnUntraced(function*(id: string) {
  const reads = yield* ServiceReadCache
  const kept = reads.liveTerms(id)
  if (kept !== undefined) return kept
  const readAt = reads.generation()
  const found = yield* (yield* CatalogRepo).find(id)
  if (Option.isNone(found) || found.value.service.status !== "live") return yield* unknownService()
  const { service, active } = found.value
  if (Option.isNone(active)) return yield* unknownService()
  const terms: LiveTerms = {
    entry: entryOf(yield* entrySite, service, active.value),
    upstreamUrl: active.value.upstreamUrl,
    owner: service.ownerAddress,
    sealedCredential: active.value.sealedCredential
  }
  reads.keepLiveTerms(id, terms, readAt)
  return terms
})
