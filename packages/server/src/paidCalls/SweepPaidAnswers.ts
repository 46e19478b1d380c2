import { Clock, Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { PaymentRepo } from "./PaymentRepo.ts"

/**
 * Drops the answers kept longer than `paidAnswerRetentionMs` (their payments stay): answers are kept for retries
 * only, so the store does not grow with every call. Idempotent, so every replica runs it.
 */
export const sweepPaidAnswers = Effect.fn("PaidCalls.sweepAnswers")(function*() {
  const repo = yield* PaymentRepo
  const config = yield* AppConfig
  const dropped = yield* repo.forgetAnswersBefore(new Date((yield* Clock.currentTimeMillis) - config.paidAnswerRetentionMs))
  if (dropped > 0) yield* Effect.logDebug("expired paid answers dropped", { dropped })
}, (sweep) =>
  // An outage is already logged by the store; the next sweep tries again.
  Effect.ignore(sweep))
