import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ManagedService, RegisterService } from "../CatalogEntry.ts"
import { described } from "../Doc.ts"
import { Conflict, Invalid, NotFound, Unavailable, UnsupportedAsset } from "../Errors.ts"
import { ServiceId } from "../Ids.ts"
import { PaymentList, PaymentListQuery } from "../PaymentHistory.ts"
import { ClaimRequested, PaymentSessionList } from "../PaymentSessionView.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

const serviceParams = { id: described(ServiceId, "The id of a service you own (svc_…), as register answered.") }

/** The seller's side of the catalog: register drafts, edit, activate. Owner session required. */
export class SellersApi extends HttpApiGroup.make("sellers")
  .add(
    HttpApiEndpoint.post("register", "/v1/register", {
      payload: RegisterService,
      success: ManagedService,
      error: [Invalid, UnsupportedAsset, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Register a service",
      description: "Creates a draft paid service owned by the caller; it goes live on activation. The gateway assigns its id and resourceUrl."
    })),
    HttpApiEndpoint.get("manage", "/v1/services/:id/manage", {
      params: serviceParams,
      success: ManagedService,
      error: NotFound
    }).annotateMerge(OpenApi.annotations({
      summary: "Read a service you own",
      description: "The service with its management fields (upstream, whether a credential is set, draft revision)."
    })),
    HttpApiEndpoint.put("edit", "/v1/services/:id", {
      params: serviceParams,
      payload: RegisterService,
      success: ManagedService,
      error: [NotFound, Invalid, UnsupportedAsset]
    }).annotateMerge(OpenApi.annotations({
      summary: "Edit a service",
      description: "Stores a new draft revision; a live service keeps serving its active terms until the draft is activated."
    })),
    HttpApiEndpoint.post("activate", "/v1/services/:id/activate", {
      params: serviceParams,
      success: ManagedService,
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Activate a service",
      description: "Makes the draft revision the live terms; a draft service goes live."
    })),
    HttpApiEndpoint.get("payments", "/v1/services/:id/payments", {
      params: serviceParams,
      query: PaymentListQuery,
      success: PaymentList,
      error: [NotFound, Invalid]
    }).annotateMerge(OpenApi.annotations({
      summary: "List a service's paid calls",
      description:
        "The payments agents made to a service you own, newest first: amount, asset, recipient, digest, paying grant, time and outcome (forwarded, refused with its reason, in flight, upstream failed). limit is at most 100; pass nextCursor as cursor for the next page."
    })),
    HttpApiEndpoint.get("sessions", "/v1/services/:id/sessions", {
      params: serviceParams,
      success: PaymentSessionList,
      error: NotFound
    }).annotateMerge(OpenApi.annotations({
      summary: "List the payment sessions paying a service you own",
      description:
        "The sessions whose payee is the service's payTo, newest first (at most 100): deposit, what the answered calls used, what the chain paid you so far (claimed), what is unclaimed, and the latest voucher, with which anyone (you included) can claim on chain (spend_account::claim) without the gateway."
    })),
    HttpApiEndpoint.post("claimSessions", "/v1/services/:id/sessions/claim", {
      params: serviceParams,
      success: ClaimRequested,
      error: [NotFound, Invalid, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Claim your sessions' unclaimed vouchers now",
      description:
        "Claims, in one transaction whose gas the gateway's sponsor pays, the latest voucher of every open session paying the service's payTo with something unclaimed. The gateway also claims by itself when half a deposit is unclaimed and before a session expires."
    }))
  )
  .middleware(OwnerAuth)
{}
