import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { managedView } from "./ManagedView.ts"
import { ownerServices } from "./OwnerServices.ts"
import { entrySite } from "./ServiceEntry.ts"

/** `GET /v1/sellers/me/services`: the signed-in seller's services, each as `manage` answers it. */
export const MyServicesHandlers = HttpApiBuilder.group(
  Api,
  "myServices",
  Effect.fn(function*(handlers) {
    const servicesOf = ownerServices(yield* SqlClient.SqlClient)
    const site = yield* entrySite
    return handlers.handle("list", () =>
      CurrentOwner.use(({ address }) =>
        Effect.map(servicesOf(address), (owned) => {
          const services = owned.map((entry) => managedView(site, entry))
          return { services, count: services.length }
        })))
  })
)
