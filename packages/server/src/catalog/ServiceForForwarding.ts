import { Effect, Option, type Redacted } from "effect"
import { Unavailable } from "@gateway/domain/Errors"
import { SellerCredentials } from "../upstream/SellerCredentials.ts"
import { readLiveTerms } from "./ReadLiveTerms.ts"

/** The live entry with its upstream and the seller's credential, opened for this call and never kept open. */
export const serviceForForwarding = Effect.fn("Catalog.forForwarding")(function*(id: string) {
  const { entry, upstreamUrl, owner, sealedCredential } = yield* readLiveTerms(id)
  if (sealedCredential === null) return { entry, upstreamUrl, upstreamCredential: Option.none<Redacted.Redacted<string>>() }
  const opened = (yield* SellerCredentials).open(entry.id, owner, sealedCredential)
  if (Option.isSome(opened)) return { entry, upstreamUrl, upstreamCredential: opened }
  // A wrong CREDENTIALS_KEY, or a sealed text moved or altered in the store: nothing is forwarded without it.
  yield* Effect.logError("a seller's upstream credential does not open under this gateway's key", { serviceId: entry.id })
  return yield* new Unavailable({
    message: "This service cannot be called through the gateway right now",
    reason: "upstream_credential_unreadable"
  })
})
