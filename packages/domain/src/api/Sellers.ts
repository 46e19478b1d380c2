import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ManagedService, RegisterService } from "../CatalogEntry.ts"
import { Conflict, Invalid, NotFound, UnsupportedAsset } from "../Errors.ts"
import { ServiceId } from "../Ids.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

/** The seller's side of the catalog: register drafts, edit, activate. Owner session required. */
export class SellersApi extends HttpApiGroup.make("sellers")
  .add(
    HttpApiEndpoint.post("register", "/v1/register", {
      payload: RegisterService,
      success: ManagedService,
      error: [Invalid, UnsupportedAsset, Conflict]
    }),
    HttpApiEndpoint.get("manage", "/v1/services/:id/manage", {
      params: { id: ServiceId },
      success: ManagedService,
      error: NotFound
    }),
    HttpApiEndpoint.put("edit", "/v1/services/:id", {
      params: { id: ServiceId },
      payload: RegisterService,
      success: ManagedService,
      error: [NotFound, Invalid, UnsupportedAsset]
    }),
    HttpApiEndpoint.post("activate", "/v1/services/:id/activate", {
      params: { id: ServiceId },
      success: ManagedService,
      error: [NotFound, Conflict]
    })
  )
  .middleware(OwnerAuth)
{}
