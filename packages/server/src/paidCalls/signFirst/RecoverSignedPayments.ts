import { Effect } from "effect"
import { AppConfig } from "../../Config.ts"
import { settleSignedPayment } from "./SettleSignedPayment.ts"
import { SignFirstRepo } from "./SignFirstRepo.ts"

/** A forward still marked in flight this many upstream timeouts later belongs to a request that died. */
const STALE_FORWARD_TIMEOUTS = 4

/** A payment settling this long belongs to a request that died, or whose execution's outcome was unknown. */
const STALE_SETTLING_MS = 5_000

/**
 * Ends what a crash (or a chain outage) left unsettled, on every replica, at start and then periodically. The
 * chain decides: a payment whose seller answered (`settling`, its answer kept) is executed, or found executed, or
 * resubmitted as the same bytes until its effects or its epoch's end; one whose seller never answered
 * (`forwarding`) is never submitted, only released, so the same payment may be presented again. Idempotent:
 * replicas that both take a payment submit the same bytes, which the chain executes once.
 */
export const recoverSignedPayments = Effect.fn("PaidCalls.recoverSignedPayments")(function*() {
  const config = yield* AppConfig
  const repo = yield* SignFirstRepo
  const left = yield* repo.unsettled(STALE_FORWARD_TIMEOUTS * config.upstreamTimeoutMs, STALE_SETTLING_MS)
  yield* Effect.forEach(left, (payment) =>
    payment.status === "settling"
      ? Effect.ignore(settleSignedPayment(payment).pipe(Effect.tap((outcome) => Effect.logInfo("sign-first payment recovered", payment.digest, outcome._tag))))
      : Effect.ignore(repo.release(payment.digest, null)), { discard: true })
})
