import { Layer } from "effect"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { AuthHandlers } from "./AuthHandlers.ts"
import { CatalogCaching } from "./CatalogCaching.ts"
import { DelegatedSignersHandlers } from "./DelegatedSignersHandlers.ts"
import { ErrorBodies } from "./ErrorBodies.ts"
import { OwnerAuthLive } from "./OwnerAuthLive.ts"
import { DiscoveryHandlers } from "./DiscoveryHandlers.ts"
import { SellersHandlers } from "./SellersHandlers.ts"
import { ServicesHandlers } from "./ServicesHandlers.ts"
import { RefuseNulUrls } from "./NulText.ts"
import { PaidCallRoute } from "./PaidCallRoute.ts"
import { PoliciesHandlers } from "./PoliciesHandlers.ts"
import { SpendAccountsHandlers } from "./SpendAccountsHandlers.ts"
import { RequestErrorsLive } from "./RequestErrorsLive.ts"
import { SystemHandlers } from "./SystemHandlers.ts"

/** Groups behind an owner session (and auth, for sign-out) get the auth middleware provided to them, not beside them. */
const OwnerGroups = Layer.mergeAll(AuthHandlers, DelegatedSignersHandlers, PoliciesHandlers, SpendAccountsHandlers, SellersHandlers).pipe(
  Layer.provide(OwnerAuthLive)
)

const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([SystemHandlers, OwnerGroups, ServicesHandlers, DiscoveryHandlers]),
  Layer.provide(RequestErrorsLive)
)

/** Every route the gateway serves on any chain: the API, paid calls, the reference page at /docs, caching and error bodies. */
export const HttpApp = Layer.mergeAll(ApiRoutes, PaidCallRoute, HttpApiScalar.layer(Api, { path: "/docs" }), CatalogCaching, RefuseNulUrls, ErrorBodies)
