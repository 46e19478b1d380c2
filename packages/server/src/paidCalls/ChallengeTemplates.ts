import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { type ChallengeTemplate, challengeTemplate, type MintedChallenge, renderChallenge, termsAt } from "./ChallengeTemplate.ts"
import { PaymentChallengeKey } from "./PaymentChallengeKey.ts"

/** The reason of a 402 to a call without a credential: the only one minted often enough to keep a template for. */
export const PAYMENT_REQUIRED = "payment_required"

/**
 * Every 402 is minted here. A service's plain 402 (`payment_required`) is minted from a template kept for the
 * entry object the catalog holds for it, which the Node server also answers from (http/AnswerChallenge.ts): a
 * template exists only once the app has challenged a call to that very entry (so it was live, its seller's
 * credential opened and its method was checked), and any change to the service is a new entry object, under
 * which the old template is never found again. Rechallenges (a credential refused) are rare and rendered whole.
 */
export class ChallengeTemplates extends Context.Service<ChallengeTemplates, {
  mint(entry: CatalogEntry, reason: string, nowMs: number): MintedChallenge
  /** The plain 402's template of this entry, once the app has minted one for it. */
  kept(entry: CatalogEntry): ChallengeTemplate | undefined
}>()("@gateway/server/ChallengeTemplates") {
  static readonly layer = Layer.effect(
    ChallengeTemplates,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const { key, mppSecret } = yield* PaymentChallengeKey
      const settings = { key, mppSecret, realm: (yield* PublicUrl).host, seconds: config.paymentChallengeSeconds, pkg: (yield* Chain).pkg }
      // Weak: an entry the catalog no longer keeps takes its template with it.
      const templates = new WeakMap<CatalogEntry, ChallengeTemplate>()
      return ChallengeTemplates.of({
        mint: (entry, reason, nowMs) => {
          if (reason !== PAYMENT_REQUIRED) return renderChallenge(termsAt(settings, entry, nowMs), reason, settings)
          const kept = templates.get(entry)
          if (kept !== undefined) return kept.mint(nowMs)
          const made = challengeTemplate(settings, entry, reason, nowMs)
          templates.set(entry, made)
          return made.mint(nowMs)
        },
        kept: (entry) => templates.get(entry)
      })
    })
  ).pipe(Layer.provide(PaymentChallengeKey.layer))
}
