import { Effect, Option } from "effect"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { CatalogRepo } from "./CatalogRepo.ts"
import { unknownService } from "./UnknownService.ts"

/** The owner's service with its revisions; NOT_FOUND when it does not exist or is another seller's. */
export const ownedService = Effect.fnUntraced(function*(owner: SuiAddress, id: string) {
  const found = yield* (yield* CatalogRepo).find(id)
  if (Option.isNone(found) || found.value.service.ownerAddress !== owner) return yield* unknownService()
  return found.value
})
