import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Invalid, RateLimited, Unavailable } from "../Errors.ts"
import { ExecuteSponsored, SponsoredExecution, SponsoredTransaction, SponsorRequest } from "../Sponsorship.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

/** Gas paid by the platform for the owner's own spend_account calls. Owner session required. */
export class SponsorshipApi extends HttpApiGroup.make("sponsorship")
  .add(
    HttpApiEndpoint.post("sponsor", "/", {
      payload: SponsorRequest,
      success: SponsoredTransaction,
      error: [Invalid, RateLimited, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Sponsor gas for a prepared kind",
      description:
        "Wraps a prepared kind (create grant, revoke, pause, resume, fund a pool from your own coins, withdraw) into a transaction you send and the platform's sponsor pays gas for: at the reference gas price, with a budget from the gateway's own simulation, on one gas coin held for you until expiresAt (one build per owner at a time: a new one releases the previous). Sign txBytes in your wallet, then execute exactly those bytes with POST /v1/sponsored-transactions/execute before expiresAt. INVALID: the kind is not one the platform sponsors, or it would abort. RATE_LIMITED: a request limit or gas budget (yours per day, smaller for an address with no funded spend account and no live service; everyone's per minute) is used; Retry-After says when to try again. UNAVAILABLE: sponsorship is off, or no gas coin is free; retry later or pay gas yourself."
    })),
    HttpApiEndpoint.post("execute", "/execute", {
      payload: ExecuteSponsored,
      success: SponsoredExecution,
      error: [Invalid, RateLimited, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Execute a sponsored transaction",
      description:
        "Co-signs only the exact bytes the gateway built for you (same digest), once, before their expiresAt, after your signature verifies and a fresh simulation shows the call still succeeds within its budget; then executes it. Finalize with the digest as usual. A failed transaction answers its digest with status failure. INVALID: the bytes are not ones the gateway built for you (or were released, expired or already executed), the signature is not yours, or the call would abort now. RATE_LIMITED: too many requests; Retry-After says when to try again."
    }))
  )
  .middleware(OwnerAuth)
  .prefix("/v1/sponsored-transactions")
{}
