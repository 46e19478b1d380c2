import { Clock, Effect, Option } from "effect"
import { Conflict } from "@gateway/domain/Errors"
import { settlementFaultOf } from "@gateway/domain/payment/SettlementFault"
import { AppConfig } from "../../Config.ts"
import type { Forwardable } from "../../catalog/Catalog.ts"
import type { SignedCredential } from "../PaymentChallenge.ts"
import { settledAnswer } from "../SettledAnswer.ts"
import { inFlight, settlementFailed, settlementPending, signAgain } from "./SignFirstRefusals.ts"
import type { SignFirstPayment } from "./SignFirstRepo.ts"

/** A payment recorded already, presented again: its kept answer, its failure, or (seller failed) another forward. */
export const answerRecorded = Effect.fnUntraced(function*(target: Forwardable, credential: SignedCredential, payment: SignFirstPayment) {
  const config = yield* AppConfig
  const paid = { payer: payment.payer, amount: payment.amount }
  switch (payment.status) {
    case "settled": {
      const now = yield* Clock.currentTimeMillis
      const kept = Option.filter(payment.answer, (a) => now - a.answeredAt.getTime() <= config.paidAnswerRetentionMs)
      if (Option.isNone(kept)) return yield* new Conflict({ message: "This payment was answered, and its answer is no longer kept", reason: "paid_answer_expired" })
      return Option.some(settledAnswer(target, { digest: payment.digest, nonce: credential.nonce }, paid, kept.value))
    }
    case "settling":
      return yield* settlementPending("the answer is kept until the payment settles")
    case "settlement_failed":
      return yield* (settlementFaultOf(payment.settleError ?? "", payment.sponsored) === "network" && Option.isSome(payment.answer)
        ? signAgain(payment.settleError ?? "")
        : settlementFailed(payment.settleError ?? "unknown"))
    case "not_charged":
      return Option.none()
    default:
      return yield* inFlight()
  }
})
