import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { answerLimited } from "../httpShared/RetryAfter.ts"
import { Sponsorship } from "./Sponsorship.ts"

/** `POST /v1/gas-station`: no session (agents call it); the payer is the request's `sender`, whose signature settlement verifies. */
export const GasStationHandlers = HttpApiBuilder.group(
  Api,
  "gasStation",
  Effect.fn(function*(handlers) {
    const sponsorship = yield* Sponsorship
    return handlers.handle("sponsor", ({ payload }) => answerLimited(sponsorship.sponsorPayment(payload.sender, payload.transactionKind)))
  })
)
