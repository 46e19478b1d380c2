import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ManagedService } from "../CatalogEntry.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

/** The caller's own services, drafts included, newest first: a seller holds a bounded number, so one answer lists them all. */
export const MyServiceList = Schema.Struct({
  services: Schema.Array(ManagedService).annotate({
    description:
      "Every service the signed-in seller owns, drafts and live ones, newest first, each with its management fields (upstream, whether a credential is set, draft revision). A seller holds at most SELLER_MAX_DRAFTS drafts and SELLER_MAX_LIVE live services, so there is no paging.",
    examples: [[]]
  }),
  // An Int, so the document says integer (a plain Number's JSON encoding is a union with the non-finite strings).
  count: Schema.Int.annotateKey({
    description: "How many services are listed (the length of services).",
    examples: [2]
  })
})
export type MyServiceList = typeof MyServiceList.Type

/** The seller's listing of their own services, so a console never has to remember their ids. Owner session required. */
export class MyServicesApi extends HttpApiGroup.make("myServices")
  .add(
    HttpApiEndpoint.get("list", "/v1/sellers/me/services", { success: MyServiceList }).annotateMerge(OpenApi.annotations({
      summary: "List your services",
      description:
        "The services the signed-in seller registered, drafts and live ones, newest first, each as GET /v1/services/{id}/manage answers it. Another seller's services never appear."
    }))
  )
  .middleware(OwnerAuth)
{}
