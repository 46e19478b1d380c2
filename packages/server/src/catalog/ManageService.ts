import { Effect } from "effect"
import type { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { managedView } from "./ManagedView.ts"
import { ownedService } from "./OwnedService.ts"
import { entrySite } from "./ServiceEntry.ts"

/** The owner's view of their service, drafts included. */
export const manageService = Effect.fn("Catalog.manage")(function*(owner: SuiAddress, id: ServiceId) {
  return managedView(yield* entrySite, yield* ownedService(owner, id))
})
