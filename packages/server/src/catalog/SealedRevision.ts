import { Effect } from "effect"
import type { RegisteredTerms } from "@gateway/domain/CatalogEntry"
import { DEFAULT_SETTLEMENT } from "@gateway/domain/ServiceSettlement"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { SellerCredentials } from "../upstream/SellerCredentials.ts"
import type { Revision } from "./StoredService.ts"

/**
 * A revision's terms and upstream, with the credential sealed for this
 * service and seller: a new one when given, none when null, and when
 * absent the one the service's newest revision holds (`kept`).
 */
export const sealedRevision = Effect.fnUntraced(function*(owner: SuiAddress, id: string, body: RegisteredTerms, kept: string | null) {
  const credentials = yield* SellerCredentials
  const { upstreamUrl, upstreamCredential, ...given } = body
  // Stored explicitly, so a revision's terms say how it settles even if the default ever changes.
  const terms = { ...given, settlement: given.settlement ?? DEFAULT_SETTLEMENT }
  const sealedCredential = upstreamCredential === undefined
    ? kept
    : upstreamCredential === null
    ? null
    : credentials.seal(id, owner, upstreamCredential)
  const revision: Omit<Revision, "revision"> = { terms, upstreamUrl, sealedCredential }
  return revision
})
