import type { CatalogEntry } from "@gateway/domain/CatalogEntry"

/** A live service's terms as callers read them, with what forwarding needs; the credential still sealed. */
export interface LiveTerms {
  readonly entry: CatalogEntry
  readonly upstreamUrl: string
  readonly owner: string
  readonly sealedCredential: string | null
}
