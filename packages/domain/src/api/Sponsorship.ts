import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Invalid, Unavailable } from "../Errors.ts"
import { ExecuteSponsored, SponsoredExecution, SponsoredTransaction, SponsorRequest } from "../Sponsorship.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

/** Gas paid by the platform for the owner's own spend_account calls. Owner session required. */
export class SponsorshipApi extends HttpApiGroup.make("sponsorship")
  .add(
    HttpApiEndpoint.post("sponsor", "/", {
      payload: SponsorRequest,
      success: SponsoredTransaction,
      error: [Invalid, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Sponsor gas for a prepared kind",
      description:
        "Wraps a prepared kind (create grant, revoke, pause, resume, fund a pool from your own coins, withdraw) into a transaction you send and the platform's sponsor pays gas for. Sign txBytes in your wallet, then execute it with POST /v1/sponsored-transactions/execute. INVALID: the kind is not one the platform sponsors. UNAVAILABLE: sponsorship is off, busy or rate-limited; retry later or pay gas yourself."
    })),
    HttpApiEndpoint.post("execute", "/execute", {
      payload: ExecuteSponsored,
      success: SponsoredExecution,
      error: [Invalid, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Execute a sponsored transaction",
      description:
        "Checks that txBytes still hold exactly your sponsored call with gas under the cap, adds the sponsor's signature to yours and executes it; then finalize with the digest as usual. A failed transaction answers its digest with status failure. INVALID: the bytes or the signature are not what was sponsored."
    }))
  )
  .middleware(OwnerAuth)
  .prefix("/v1/sponsored-transactions")
{}
