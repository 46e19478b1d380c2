import { Context, Effect, Layer, type Option, type Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry, ManagedService, RegisterService } from "@gateway/domain/CatalogEntry"
import type { Conflict, Invalid, NotFound, Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import type { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { resealCredentials } from "../upstream/ResealCredentials.ts"
import { SellerCredentials } from "../upstream/SellerCredentials.ts"
import { activateService } from "./ActivateService.ts"
import { CatalogChanges } from "./CatalogChanges.ts"
import { CatalogRepo } from "./CatalogRepo.ts"
import { editService } from "./EditService.ts"
import { getService } from "./GetService.ts"
import { listServices } from "./ListServices.ts"
import { manageService } from "./ManageService.ts"
import { registerService } from "./RegisterService.ts"
import { serviceAtRevision } from "./ServiceAtRevision.ts"
import { serviceForForwarding } from "./ServiceForForwarding.ts"
import { ServiceReadCache } from "./ServiceReadCache.ts"
import { withServices } from "../UseCase.ts"

/** What forwarding a paid call needs; never returned to callers. The credential is opened at each call, never cached. */
export interface Forwardable {
  readonly entry: CatalogEntry
  readonly upstreamUrl: string
  readonly upstreamCredential: Option.Option<Redacted.Redacted<string>>
}

export interface CatalogPage {
  readonly count: number
  readonly services: ReadonlyArray<CatalogEntry>
  readonly nextCursor: string | null
}

/** What the use cases take from their context. */
type UseCaseServices = CatalogRepo | AppConfig | PublicUrl | Chain | CatalogChanges | ServiceReadCache | SellerCredentials

/**
 * The catalog's rules: sellers register drafts and activate them; callers read
 * only live services, always at their active revision, never invented ones.
 * Live terms are kept in ServiceReadCache, as public reads' answers are,
 * until the CatalogChanges event every change publishes drops them.
 */
export class Catalog extends Context.Service<Catalog, {
  register(owner: SuiAddress, body: RegisterService): Effect.Effect<ManagedService, Invalid | UnsupportedAsset | Conflict | Unavailable>
  edit(owner: SuiAddress, id: ServiceId, body: RegisterService): Effect.Effect<ManagedService, NotFound | Invalid | UnsupportedAsset | Unavailable>
  activate(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Conflict | Unavailable>
  manage(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Unavailable>
  get(id: string): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The terms of an activated revision, as a 402 challenge minted under it asked for them. */
  atRevision(id: string, revision: number): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The live entry with its upstream and the seller's credential, opened for this call. */
  forForwarding(id: string): Effect.Effect<Forwardable, NotFound | Unavailable>
  list(query: { q?: string; limit?: number; cursor?: string }): Effect.Effect<CatalogPage, Invalid | Unavailable>
}>()("@gateway/server/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function*() {
      // Only these services, so each call keeps its own clock, tracer and parent span.
      const services = Context.pick(CatalogRepo, AppConfig, PublicUrl, Chain, CatalogChanges, ServiceReadCache, SellerCredentials)(
        yield* Effect.context<UseCaseServices>()
      )
      const provided = withServices(services)
      // After a key rotation, every replica moves what it finds under a previous key to the current one, once.
      if ((yield* AppConfig).credentialsKeysPrevious.length > 0) {
        yield* Effect.forkScoped(Effect.ignore(Effect.provideContext(resealCredentials(), Context.add(services, SqlClient.SqlClient, yield* SqlClient.SqlClient))))
      }
      return Catalog.of({
        register: provided(registerService),
        edit: provided(editService),
        activate: provided(activateService),
        manage: provided(manageService),
        get: provided(getService),
        atRevision: provided(serviceAtRevision),
        forForwarding: provided(serviceForForwarding),
        list: provided(listServices)
      })
    })
  ).pipe(Layer.provide(SellerCredentials.layer))
}
