import { Effect, Option } from "effect"
import { CatalogRepo } from "./CatalogRepo.ts"
import { entryOf, entrySite } from "./ServiceEntry.ts"
import { unknownService } from "./UnknownService.ts"

/** The terms of an activated revision, as a 402 challenge minted under it asked for them. */
export const serviceAtRevision = Effect.fn("Catalog.atRevision")(function*(id: string, revision: number) {
  const found = yield* (yield* CatalogRepo).findActivated(id, revision)
  if (Option.isNone(found)) return yield* unknownService()
  return entryOf(yield* entrySite, { id, status: "live", activeRevision: found.value.revision }, found.value)
})
