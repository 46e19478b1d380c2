import { HttpApi, OpenApi } from "effect/http-api"
import { AuthApi } from "./Auth.ts"
import { DelegatedSignersApi } from "./DelegatedSigners.ts"
import { DiscoveryApi } from "./Discovery.ts"
import { GasStationApi } from "./GasStation.ts"
import { MyServicesApi } from "./MyServices.ts"
import { PaymentSessionsApi } from "./PaymentSessions.ts"
import { withPaidCallPath } from "./PaidCallOpenApi.ts"
import { PoliciesApi } from "./Policies.ts"
import { RequestErrors } from "./RequestErrors.ts"
import { SellersApi } from "./Sellers.ts"
import { ServicesApi } from "./Services.ts"
import { SpendAccountsApi } from "./SpendAccounts.ts"
import { SponsorshipApi } from "./Sponsorship.ts"
import { SystemApi } from "./System.ts"

/** The one definition both the server and the typed client are derived from. */
export class Api extends HttpApi.make("gateway")
  .add(SystemApi)
  .add(AuthApi)
  .add(DelegatedSignersApi)
  .add(PoliciesApi)
  .add(SpendAccountsApi)
  .add(SponsorshipApi)
  .add(GasStationApi)
  .add(PaymentSessionsApi)
  .add(SellersApi)
  .add(MyServicesApi)
  .add(ServicesApi)
  .add(DiscoveryApi)
  .middleware(RequestErrors)
  // `/openapi.json` promises additionalProperties: false; the decoder keeps that promise. Every invalid field is
  // reported at once, so a caller fixes a body in one round instead of one field per request.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotateMerge(OpenApi.annotations({
    title: "Sui delegated-signer gateway",
    description: "Delegated signers verified on chain, and a catalog of paid services for agents.",
    transform: withPaidCallPath
  }))
{}
