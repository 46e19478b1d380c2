import { Clock, Effect, Schedule } from "effect"
import type { PaidBy } from "@gateway/domain/payment/PaidCallDecision"
import { Unavailable } from "@gateway/domain/Errors"
import type { Forwardable } from "../catalog/Catalog.ts"
import type { UpstreamAnswer } from "../upstream/UpstreamForwarder.ts"
import { callSeller } from "./CallSeller.ts"
import { type CallTiming, timedPart } from "./ServerTiming.ts"
import type { PaidCallRequest } from "./PaidCallRequest.ts"
import type { PaymentCredential } from "./PaymentChallenge.ts"
import { PaymentRepo } from "./PaymentRepo.ts"
import { settledAnswer } from "./SettledAnswer.ts"

/** Why a forward gave the payer nothing: always the seller's side, so the payment stays retryable. */
const failureOf = (failure: Exclude<UpstreamAnswer["_tag"], "Answered">) => {
  switch (failure) {
    case "TooLarge":
      return new Unavailable({
        message: "The seller's answer was larger than this gateway returns; your payment is kept",
        reason: "upstream_answer_too_large_retry_with_the_same_credential"
      })
    case "Forbidden":
      return new Unavailable({
        message: "The seller's service is at an address this gateway does not call; your payment is kept",
        reason: "upstream_address_refused_retry_with_the_same_credential"
      })
    case "Failed":
      return new Unavailable({
        message: "The seller's service failed; your payment is kept",
        reason: "upstream_failed_retry_with_the_same_credential"
      })
  }
}

// The seller has answered: a store that blinks now would strand the payment in flight for
// the stale-forward bound and call the seller twice, so the settling write is retried briefly.
export const persist = <A, E, R>(write: Effect.Effect<A, E, R>) => write.pipe(Effect.retry({ schedule: Schedule.exponential("20 millis"), times: 6 }))

const forwardOnce = Effect.fnUntraced(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: PaymentCredential,
  paid: PaidBy,
  timing: CallTiming
) {
  const repo = yield* PaymentRepo
  const answer = yield* timedPart(timing, "sellerNs", callSeller(request, target, credential.digest))
  if (answer._tag !== "Answered" || answer.status >= 500) {
    yield* persist(repo.settleFailed(credential.digest, answer._tag === "Answered" ? answer.status : null))
    return yield* failureOf(answer._tag === "Answered" ? "Failed" : answer._tag)
  }
  const kept = { status: answer.status, contentType: answer.contentType, body: answer.body, answeredAt: new Date(yield* Clock.currentTimeMillis) }
  yield* persist(repo.settleForwarded(credential.digest, kept, kept.answeredAt))
  return settledAnswer(target, credential, paid, kept)
})

/**
 * Forwards a paid call, its payment held by this request, once to the seller, and settles the payment: answered
 * (the answer kept for the payer's retries) or failed (retryable with the same credential). Uninterruptible to the
 * settled record: a caller who hangs up must not leave the payment stuck in flight.
 */
export const forwardPayment = (request: PaidCallRequest, target: Forwardable, credential: PaymentCredential, paid: PaidBy, timing: CallTiming) =>
  Effect.uninterruptible(forwardOnce(request, target, credential, paid, timing))
