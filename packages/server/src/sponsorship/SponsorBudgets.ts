import { Context, Effect, Layer } from "effect"
import { Invalid, type Unavailable } from "@gateway/domain/Errors"
import { type PaymentCharge, paymentAllowances } from "@gateway/domain/sponsorship/PaymentAllowance"
import { type GasAllowance, gasAllowances, neverFits } from "@gateway/domain/sponsorship/SponsorAllowance"
import { AppConfig } from "../Config.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits, type Taken } from "../limits/RateLimits.ts"
import { OwnerStake } from "./OwnerStake.ts"

/**
 * The sponsor's gas budgets, in MIST of transaction budget, counted in the
 * store so they hold across replicas: a build takes its whole gas budget
 * from every budget that applies to its owner (`gasAllowances`), and what the
 * transaction did not spend is given back afterwards. Owners' own calls and
 * the gas station's payments take from budgets of their own (`paymentAllowances`).
 */
export class SponsorBudgets extends Context.Service<SponsorBudgets, {
  /**
   * Takes `amount` from each budget of the owner, or refuses with the first that is used up, taking nothing;
   * INVALID when `amount` is more than a whole budget, which no wait would help.
   */
  take(owner: string, amount: bigint): Effect.Effect<ReadonlyArray<Taken>, Invalid | Limited | Unavailable>
  /** The same for a gas-station payment, from the budgets of whoever it is charged to. */
  takeForPayment(charge: PaymentCharge, amount: bigint): Effect.Effect<ReadonlyArray<Taken>, Invalid | Limited | Unavailable>
  /** Gives `amount` back to each budget a build took from (never more than it took). An outage leaves it counted as spent. */
  giveBack(taken: ReadonlyArray<Taken>, amount: bigint): Effect.Effect<void>
  /** Gives back everything a build took: it was never co-signed. */
  giveBackAll(taken: ReadonlyArray<Taken>): Effect.Effect<void>
}>()("@gateway/server/SponsorBudgets") {
  static readonly layer = Layer.effect(
    SponsorBudgets,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const limits = yield* RateLimits
      const stake = yield* OwnerStake
      const settings = {
        ownerGasPerDay: config.sponsorOwnerGasPerDay,
        newcomerGasPerDay: config.sponsorNewcomerGasPerDay,
        gasPerMinute: config.sponsorGasPerMinute,
        newcomerGasPerMinute: config.sponsorNewcomerGasPerMinute
      }
      const paymentSettings = {
        gasPerGrantOwnerPerDay: config.sponsorPaymentGasPerGrantOwnerPerDay,
        gasPerPayerPerDay: config.sponsorPaymentGasPerPayerPerDay,
        gasPerMinute: config.sponsorPaymentGasPerMinute
      }

      const giveBackEach = (taken: ReadonlyArray<Taken>, amountOf: (t: Taken) => number) =>
        Effect.forEach(taken, (t) => limits.giveBack(t, amountOf(t)), { discard: true }).pipe(
          Effect.catch((error) => Effect.logWarning("sponsor budget not given back", error.reason)),
          Effect.withSpan("SponsorBudgets.giveBack")
        )
      const giveBack = (taken: ReadonlyArray<Taken>, amount: bigint) =>
        giveBackEach(taken, (t) => (amount >= BigInt(t.amount) ? t.amount : Number(amount)))
      const giveBackAll = (taken: ReadonlyArray<Taken>) => giveBackEach(taken, (t) => t.amount)

      /** Takes `amount` from every allowance in turn; the first refusal gives back what was taken before it. */
      const takeAll = Effect.fnUntraced(function*(allowances: ReadonlyArray<GasAllowance>, amount: bigint, ownGas: string) {
        const tooLarge = neverFits(allowances, amount)
        if (tooLarge !== undefined) {
          return yield* new Invalid({
            message: `The platform does not sponsor this transaction: ${ownGas}`,
            reason: `gas: this call's budget of ${amount} MIST is more than the whole of its sponsorship budget (${tooLarge.refusal.reason})`
          })
        }
        const taken: Array<Taken> = []
        for (const allowance of allowances) {
          const took = yield* limits.take(allowance.bucket, allowance.quota, allowance.refusal, Number(amount)).pipe(
            Effect.tapError(() => giveBackAll(taken))
          )
          taken.push(took)
        }
        return taken
      })

      const take = Effect.fn("SponsorBudgets.take")(function*(owner: string, amount: bigint) {
        const standing = yield* stake.standing(owner)
        return yield* takeAll(gasAllowances(owner, standing, settings), amount, "pay gas from your own wallet")
      })

      const takeForPayment = Effect.fn("SponsorBudgets.takeForPayment")(function*(charge: PaymentCharge, amount: bigint) {
        return yield* takeAll(paymentAllowances(charge, paymentSettings), amount, "pay gas from the payer's own coins")
      })

      return SponsorBudgets.of({ take, takeForPayment, giveBack, giveBackAll })
    })
  ).pipe(Layer.provide(OwnerStake.layer))
}
