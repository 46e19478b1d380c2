import { Clock, Effect } from "effect"
import type { RegisterService } from "@gateway/domain/CatalogEntry"
import { Conflict } from "@gateway/domain/Errors"
import { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { newId } from "../storage/NewId.ts"
import { CatalogChanges } from "./CatalogChanges.ts"
import { CatalogRepo } from "./CatalogRepo.ts"
import { managedView } from "./ManagedView.ts"
import { ownedService } from "./OwnedService.ts"
import { checkRegistration } from "./RegistrationChecks.ts"
import { sealedRevision } from "./SealedRevision.ts"
import { entrySite } from "./ServiceEntry.ts"

/** A new service, as a draft of its seller's, unless the seller already holds as many drafts as allowed. */
export const registerService = Effect.fn("Catalog.register")(function*(owner: SuiAddress, body: RegisterService) {
  const config = yield* AppConfig
  const terms = yield* checkRegistration(body)
  const id = ServiceId.make(newId("svc"))
  const revision = { revision: 1, ...(yield* sealedRevision(owner, id, terms, null)) }
  const now = new Date(yield* Clock.currentTimeMillis)
  if (!(yield* (yield* CatalogRepo).insertDraft({ id, owner, revision, now, maxDrafts: config.sellerMaxDrafts }))) {
    return yield* new Conflict({
      message: `A seller may hold at most ${config.sellerMaxDrafts} drafts; activate one first`,
      reason: "seller_draft_limit_reached"
    })
  }
  yield* (yield* CatalogChanges).publish(id)
  // Just inserted in this request: not finding it is a defect, not a caller's error.
  return managedView(yield* entrySite, yield* ownedService(owner, id).pipe(Effect.catchTag("NOT_FOUND", Effect.die)))
})
