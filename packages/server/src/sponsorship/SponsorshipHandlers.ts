import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { answerLimited } from "../httpShared/RetryAfter.ts"
import { Sponsorship } from "./Sponsorship.ts"

export const SponsorshipHandlers = HttpApiBuilder.group(
  Api,
  "sponsorship",
  Effect.fn(function*(handlers) {
    const sponsorship = yield* Sponsorship
    return handlers
      .handle("sponsor", ({ payload }) => CurrentOwner.use(({ address }) => answerLimited(sponsorship.sponsor(address, payload.txKindBytes))))
      .handle("execute", ({ payload }) => CurrentOwner.use(({ address }) => answerLimited(sponsorship.execute(address, payload.txBytes, payload.signature))))
  })
)
