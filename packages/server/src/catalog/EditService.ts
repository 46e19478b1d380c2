import { Clock, Effect, Option } from "effect"
import type { RegisterService } from "@gateway/domain/CatalogEntry"
import type { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { CatalogChanges } from "./CatalogChanges.ts"
import { CatalogRepo } from "./CatalogRepo.ts"
import { managedView } from "./ManagedView.ts"
import { ownedService } from "./OwnedService.ts"
import { checkRegistration } from "./RegistrationChecks.ts"
import { sealedRevision } from "./SealedRevision.ts"
import { entrySite } from "./ServiceEntry.ts"
import { unknownService } from "./UnknownService.ts"

/** New terms for the owner's service, as its draft: callers keep reading the active revision until it is activated. */
export const editService = Effect.fn("Catalog.edit")(function*(owner: SuiAddress, id: ServiceId, body: RegisterService) {
  const current = yield* ownedService(owner, id)
  const terms = yield* checkRegistration(body)
  const newest = Option.orElse(current.draft, () => current.active)
  const kept = Option.match(newest, { onNone: () => null, onSome: (r) => r.sealedCredential })
  const revision = yield* sealedRevision(owner, id, terms, kept)
  const added = yield* (yield* CatalogRepo).addRevision({ id, owner, revision, now: new Date(yield* Clock.currentTimeMillis) })
  if (Option.isNone(added)) return yield* unknownService()
  yield* (yield* CatalogChanges).publish(id)
  return managedView(yield* entrySite, yield* ownedService(owner, id))
})
