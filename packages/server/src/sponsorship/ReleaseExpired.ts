import { Clock, Effect } from "effect"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"

/** Expired builds hold nothing and can never be co-signed: their coins go back to the pool and their budgets to their owners. */
export const releaseExpired = Effect.gen(function*() {
  const repo = yield* ReservationRepo
  const budgets = yield* SponsorBudgets
  const released = yield* repo.releaseExpired(yield* Clock.currentTimeMillis)
  yield* Effect.forEach(released, budgets.giveBackAll, { discard: true })
})
