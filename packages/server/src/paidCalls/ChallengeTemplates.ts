import { Context, Effect, Layer, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { Sponsorship } from "../sponsorship/Sponsorship.ts"
import { offersExactAt } from "@gateway/domain/payment/ExactOfferWindow"
import { EpochEnd } from "./signFirst/EpochEnd.ts"
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
  /** A 402 for the entry saying why (`reason`) and, for a refused payment, what happened to it (`message`). */
  mint(entry: CatalogEntry, reason: string, nowMs: number, message?: string): MintedChallenge
  /** The plain 402's template of this entry, once the app has minted one for it; none near the epoch's end. */
  kept(entry: CatalogEntry, nowMs: number): ChallengeTemplate | undefined
}>()("@gateway/server/ChallengeTemplates") {
  static readonly layer = Layer.effect(
    ChallengeTemplates,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const { key, mppSecret } = yield* PaymentChallengeKey
      const publicUrl = yield* PublicUrl
      const sponsor = (yield* Sponsorship).sponsorAddress
      const sponsoring = Option.isSome(sponsor)
      const settings = {
        key,
        mppSecret,
        realm: publicUrl.host,
        seconds: config.paymentChallengeSeconds,
        pkg: (yield* Chain).pkg,
        gasStation: sponsoring ? `${publicUrl.origin}/v1/gas-station` : undefined,
        sessionOperator: Option.getOrUndefined(sponsor)
      }
      // Weak: an entry the catalog no longer keeps takes its template with it.
      const templates = new WeakMap<CatalogEntry, ChallengeTemplate>()
      const epochEnd = yield* EpochEnd
      const offersExact = (nowMs: number) => offersExactAt(epochEnd.endsAtMs(), nowMs, settings.seconds)
      return ChallengeTemplates.of({
        mint: (entry, reason, nowMs, message) => {
          // Near the epoch's end (minutes a day) only the upfront offer is made, rendered whole.
          if (!offersExact(nowMs)) return renderChallenge(termsAt(settings, entry, nowMs), reason, { ...settings, offerExact: false }, message)
          if (reason !== PAYMENT_REQUIRED) {
            const offerExact = entry.settlement !== "before_forwarding"
            return renderChallenge(termsAt(settings, entry, nowMs), reason, { ...settings, offerExact }, message)
          }
          const kept = templates.get(entry)
          if (kept !== undefined) return kept.mint(nowMs)
          const made = challengeTemplate(settings, entry, reason, nowMs)
          templates.set(entry, made)
          return made.mint(nowMs)
        },
        kept: (entry, nowMs) => (offersExact(nowMs) ? templates.get(entry) : undefined)
      })
    })
  ).pipe(Layer.provide(Layer.mergeAll(PaymentChallengeKey.layer, EpochEnd.layer)))
}
