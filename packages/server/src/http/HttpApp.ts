import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { AuthHandlers } from "../owners/AuthHandlers.ts"
import { CatalogCaching } from "../catalog/CatalogCaching.ts"
import { ConsoleRoutes } from "../console/ConsoleRoutes.ts"
import { DelegatedSignersHandlers } from "../signers/DelegatedSignersHandlers.ts"
import { DocsPage } from "./DocsPage.ts"
import { ErrorBodies } from "../httpShared/ErrorBodies.ts"
import { GasStationHandlers } from "../sponsorship/GasStationHandlers.ts"
import { PaymentSessionsHandlers } from "../paidCalls/sessions/PaymentSessionsHandlers.ts"
import { OwnerAuthLive } from "../owners/OwnerAuthLive.ts"
import { DiscoveryHandlers } from "../discovery/DiscoveryHandlers.ts"
import { SellersHandlers } from "../catalog/SellersHandlers.ts"
import { MyServicesHandlers } from "../catalog/MyServicesHandlers.ts"
import { ServicesHandlers } from "../catalog/ServicesHandlers.ts"
import { RefuseNulUrls } from "./NulText.ts"
import { PaidCallRoute } from "../paidCalls/PaidCallRoute.ts"
import { MetricsRoute } from "../observability/MetricsRoute.ts"
import { PoliciesHandlers } from "../owners/PoliciesHandlers.ts"
import { SpendAccountsHandlers } from "../owners/SpendAccountsHandlers.ts"
import { SponsorshipHandlers } from "../sponsorship/SponsorshipHandlers.ts"
import { RequestErrorsLive } from "./RequestErrorsLive.ts"
import { SystemHandlers } from "./SystemHandlers.ts"

/** Groups behind an owner session (and auth, for sign-out) get the auth middleware provided to them, not beside them. */
const OwnerGroups = Layer.mergeAll(AuthHandlers, DelegatedSignersHandlers, PoliciesHandlers, SpendAccountsHandlers, SellersHandlers, MyServicesHandlers, SponsorshipHandlers).pipe(
  Layer.provide(OwnerAuthLive)
)

const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([SystemHandlers, OwnerGroups, ServicesHandlers, DiscoveryHandlers, GasStationHandlers, PaymentSessionsHandlers]),
  Layer.provide(RequestErrorsLive)
)

/** Every route the gateway serves on any chain: the API, paid calls, the reference page at /docs, metrics, caching and error bodies. */
export const HttpApp = Layer.mergeAll(ApiRoutes, PaidCallRoute, DocsPage, MetricsRoute, ConsoleRoutes, CatalogCaching, RefuseNulUrls, ErrorBodies)
