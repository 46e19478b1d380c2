import { Clock, Effect } from "effect"
import { Conflict } from "@gateway/domain/Errors"
import type { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { CatalogChanges } from "./CatalogChanges.ts"
import { CatalogRepo } from "./CatalogRepo.ts"
import { managedView } from "./ManagedView.ts"
import { ownedService } from "./OwnedService.ts"
import { entrySite } from "./ServiceEntry.ts"

/** Makes the owner's draft the revision callers read, within the seller's bound on live services. */
export const activateService = Effect.fn("Catalog.activate")(function*(owner: SuiAddress, id: ServiceId) {
  const config = yield* AppConfig
  yield* ownedService(owner, id)
  const now = new Date(yield* Clock.currentTimeMillis)
  const activation = yield* (yield* CatalogRepo).activate({ id, owner, now, maxLive: config.sellerMaxLive })
  if (activation._tag === "NothingToActivate") {
    return yield* new Conflict({ message: "Nothing to activate", reason: "no_draft_revision" })
  }
  if (activation._tag === "LiveLimitReached") {
    return yield* new Conflict({
      message: `A seller may have at most ${config.sellerMaxLive} live services`,
      reason: "seller_live_limit_reached"
    })
  }
  yield* (yield* CatalogChanges).publish(id)
  return managedView(yield* entrySite, yield* ownedService(owner, id))
})
