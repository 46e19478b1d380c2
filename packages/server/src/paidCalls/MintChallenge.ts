import { Clock, Effect } from "effect"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { ChallengeTemplates } from "./ChallengeTemplates.ts"

/**
 * A 402 for the service's live terms, saying why, and for a refused payment what happened to its money. Minting
 * writes nothing: the nonce carries its terms under the gateway's key (see ChallengeNonce).
 */
export const mintChallenge = Effect.fn("PaidCalls.mintChallenge")(function*(entry: CatalogEntry, reason: string, message?: string) {
  const { body, headers } = (yield* ChallengeTemplates).mint(entry, reason, yield* Clock.currentTimeMillis, message)
  return { _tag: "PaymentRequired" as const, body, headers }
})
