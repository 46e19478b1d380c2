import { Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { type GasUsed, unspent } from "@gateway/domain/sponsorship/GasBudget"
import { recordSponsorSpend } from "../observability/SponsorMetrics.ts"
import { isPaymentHolder } from "./PaymentHolder.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"

/**
 * After a payment's settlement: executed (`gas` as its effects say), what it did not spend goes back to the
 * budgets it was taken from and its coin to the pool; never executed (`undefined`: the seller failed and the
 * payment was let go for good), the whole budget goes back and the coin is freed, unless the sponsor co-signed
 * it, in which case the coin version stays held until the pool sees it can no longer execute and the budget
 * counts as spent. Each release happens once, however often this is called. Store failures are logged: expiry
 * and the pool's rounds free what is left.
 */
export const settledPayment = Effect.fn("Sponsorship.settledPayment")(function*(txBytes: Uint8Array, gas: GasUsed | undefined) {
  const repo = yield* ReservationRepo
  const budgets = yield* SponsorBudgets
  const digest = yield* Effect.option(Effect.try(() => TransactionDataBuilder.getDigestFromBytes(txBytes)))
  if (Option.isNone(digest)) return
  const found = yield* repo.findBuild(digest.value)
  if (Option.isNone(found) || !isPaymentHolder(found.value.holder)) return
  const build = found.value
  if (gas !== undefined) {
    if (yield* repo.releaseExecuted(digest.value)) {
      yield* budgets.giveBack(build.taken, unspent(build.gasBudget, gas))
      yield* recordSponsorSpend("payment", gas)
    }
  } else if (yield* repo.releaseUnsigned(digest.value)) {
    yield* budgets.giveBackAll(build.taken)
  }
}, Effect.catch((down) => Effect.logWarning("a settled payment's sponsor hold was not released", down.reason)))
