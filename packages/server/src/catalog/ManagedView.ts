import { Option, Schema } from "effect"
import { CatalogEntry, type ManagedService, ManagedService as ManagedServiceSchema } from "@gateway/domain/CatalogEntry"
import { type EntrySite, entryOf } from "./ServiceEntry.ts"
import type { ServiceWithRevisions } from "./StoredService.ts"

/** The owner's view of a service: its entry, upstream and revisions. */
export const managedView = (site: EntrySite, { service, active, draft }: ServiceWithRevisions): ManagedService => {
  // The owner's view shows the live terms, or the draft's before the first activation.
  const shown = Option.getOrElse(Option.orElse(active, () => draft), () => undefined)
  if (shown === undefined) throw new Error(`service ${service.id} has no revision`)
  const upstream = Option.getOrElse(Option.orElse(draft, () => active), () => shown)
  return Schema.decodeUnknownSync(ManagedServiceSchema)({
    service: Schema.encodeSync(CatalogEntry)(entryOf(site, service, shown)),
    management: {
      ownerAddress: service.ownerAddress,
      upstreamUrl: upstream.upstreamUrl,
      hasUpstreamCredential: upstream.sealedCredential !== null,
      draftRevision: service.draftRevision,
      createdAt: service.createdAt,
      updatedAt: service.updatedAt
    }
  })
}
