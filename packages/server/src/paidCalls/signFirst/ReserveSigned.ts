import { Effect, Option } from "effect"
import { Conflict } from "@gateway/domain/Errors"
import { inFlight } from "./SignFirstRefusals.ts"
import { type SignFirstPayment, SignFirstRepo } from "./SignFirstRepo.ts"
import type { VerifiedPayment } from "./VerifySignedPayment.ts"

/**
 * Reserves the verified payment, or says why another payment stands in its way. Already recorded meanwhile (a
 * concurrent presentation settled it first): that record answers, as if it had been found before.
 */
export const reserveSigned = Effect.fnUntraced(function*(verified: VerifiedPayment, signature: string) {
  const outcome = yield* (yield* SignFirstRepo).reserve({
    claim: verified.claim,
    txBytes: verified.bytes,
    signature,
    sponsored: verified.sponsored,
    expiresEpoch: verified.tx.expiration._tag === "Epoch" ? verified.tx.expiration.epoch : 0n,
    holds: verified.holds,
    grantAvailable: verified.grantAvailable
  })
  switch (outcome._tag) {
    case "Reserved":
      return Option.none<SignFirstPayment>()
    case "InFlight":
      return yield* inFlight()
    case "ChallengeTaken":
      return yield* new Conflict({ message: "Another signed payment already paid this challenge: ask for a new one", reason: "challenge_already_paid" })
    case "Overlap":
      return yield* new Conflict({
        message: "Another of your payments is still unsettled and holds the same coins or balance: present it first, or wait for it to settle",
        reason: "payment_overlaps_unsettled_payment"
      })
    case "OverBudget":
      return yield* new Conflict({
        message: `The grant has ${outcome.available} left, and unsettled payments already hold ${outcome.reserved}: wait for them to settle`,
        reason: "grant_budget_held_by_unsettled_payments"
      })
    case "Recorded": {
      const recorded = yield* (yield* SignFirstRepo).find(verified.digest)
      if (Option.isSome(recorded)) return recorded
      return yield* new Conflict({ message: "This transaction is recorded as another payment", reason: "payment_recorded" })
    }
  }
})
