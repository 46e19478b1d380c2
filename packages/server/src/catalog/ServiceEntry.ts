import { Effect, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { DEFAULT_SETTLEMENT } from "@gateway/domain/ServiceSettlement"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import type { Revision, ServiceRow } from "./StoredService.ts"

/** The gateway's own address for paid calls to a service. */
const resourcePath = (id: string) => `/v1/pay/${id}`

/** Where every entry points: the gateway's public origin and the network its payments are made on. */
export interface EntrySite {
  readonly origin: string
  readonly network: string
}

/** This gateway's site, as its entries name it. */
export const entrySite: Effect.Effect<EntrySite, never, PublicUrl | Chain> = Effect.gen(function*() {
  const { origin } = yield* PublicUrl
  const { network } = yield* Chain
  return { origin, network }
})

/** A service's entry as callers read it, at one of its revisions. */
export const entryOf = (site: EntrySite, service: Pick<ServiceRow, "id" | "status" | "activeRevision">, revision: Revision): CatalogEntry =>
  Schema.decodeUnknownSync(CatalogEntry)({
    id: service.id,
    name: revision.terms.name,
    description: revision.terms.description,
    method: revision.terms.method,
    path: revision.terms.path,
    resourceUrl: `${site.origin}${resourcePath(service.id)}`,
    price: revision.terms.price,
    asset: revision.terms.asset,
    decimals: revision.terms.decimals,
    payTo: revision.terms.payTo,
    network: site.network,
    dialects: revision.terms.dialects ?? ["mpp", "x402"],
    rail: "delegate",
    mimeType: revision.terms.mimeType ?? "application/json",
    // Revisions stored before the option name none: they were served after the answer.
    settlement: revision.terms.settlement ?? DEFAULT_SETTLEMENT,
    status: service.status,
    managed: true,
    brand: revision.terms.brand ?? null,
    activeRevision: service.activeRevision
  })
