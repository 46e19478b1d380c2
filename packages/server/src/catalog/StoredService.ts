import { type Option, Schema } from "effect"
import { ServiceStatus, ServiceTerms } from "@gateway/domain/CatalogEntry"
import { TimestampIso } from "../storage/Codecs.ts"

/** The terms of one immutable revision, as the seller registered them (upstream and its credential aside). */
export const Terms = ServiceTerms
export type Terms = typeof Terms.Type

/** The terms as their column holds them: JSON text. */
export const TermsJson = Schema.fromJsonString(Terms)

/** A service as stored: who owns it, its state and which revisions are live and pending. */
export const ServiceRow = Schema.Struct({
  id: Schema.String,
  ownerAddress: Schema.String,
  status: ServiceStatus,
  activeRevision: Schema.Number,
  draftRevision: Schema.NullOr(Schema.Number),
  createdAt: TimestampIso,
  updatedAt: TimestampIso
})
export type ServiceRow = typeof ServiceRow.Type

/** One revision of a service's terms and upstream. */
export const Revision = Schema.Struct({
  revision: Schema.Number,
  terms: TermsJson,
  upstreamUrl: Schema.String,
  /** The seller's upstream secret as SellerCredentials sealed it; never the secret itself. */
  sealedCredential: Schema.NullOr(Schema.String)
})
export type Revision = typeof Revision.Type

/** A revision read for several services at once, named by its service. */
export const ServiceRevision = Schema.Struct({ serviceId: Schema.String, ...Revision.fields })

export interface ServiceWithRevisions {
  readonly service: ServiceRow
  /** The revision callers see (none before the first activation). */
  readonly active: Option.Option<Revision>
  /** The newest revision not yet activated. */
  readonly draft: Option.Option<Revision>
}
