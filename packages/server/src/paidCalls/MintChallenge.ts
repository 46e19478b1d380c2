import { Clock, Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import type { ChallengeTerms } from "@gateway/domain/payment/SuiDelegateOffer"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { mintNonce } from "./ChallengeNonce.ts"
import { challengeHeaders } from "./PaymentChallenge.ts"
import { PaymentChallengeKey } from "./PaymentChallengeKey.ts"

/**
 * A 402 for the service's live terms, saying why. Minting writes nothing: the nonce carries its terms under the
 * gateway's key (see ChallengeNonce).
 */
export const mintChallenge = Effect.fn("PaidCalls.mintChallenge")(function*(entry: CatalogEntry, reason: string) {
  const config = yield* AppConfig
  const chain = yield* Chain
  const publicUrl = yield* PublicUrl
  const { key, mppSecret } = yield* PaymentChallengeKey
  const expiresAt = new Date((yield* Clock.currentTimeMillis) + config.paymentChallengeSeconds * 1000)
  const terms: ChallengeTerms = {
    nonce: mintNonce(key, { serviceId: entry.id, revision: entry.activeRevision, expiresAtMs: expiresAt.getTime() }),
    seconds: config.paymentChallengeSeconds,
    expiresAt,
    entry,
    pkg: chain.pkg
  }
  return {
    _tag: "PaymentRequired" as const,
    body: { ok: false, code: "PAYMENT_REQUIRED", message: "This call must be paid", reason, ...paymentRequired(terms, reason) },
    headers: challengeHeaders(terms, publicUrl.host, reason, mppSecret)
  }
})
