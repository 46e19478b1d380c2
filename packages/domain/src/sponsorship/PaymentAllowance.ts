import { normalizeSuiAddress } from "@mysten/sui/utils"
import { perDay, perMinute } from "../limits/Quota.ts"
import type { GasAllowance } from "./SponsorAllowance.ts"

/** The gas budgets, in MIST, the SPONSOR_PAYMENT_* settings give the gas station's payments. */
export interface PaymentBudgets {
  readonly gasPerGrantOwnerPerDay: number
  readonly gasPerPayerPerDay: number
  readonly gasPerMinute: number
}

/**
 * Whom a sponsored payment's gas is charged to: whoever has something at stake in it. A grant payment moves the
 * grant owner's funded pool under terms that owner set, so its owner answers for its agents' gas (agents own no
 * spend account, and one owner may run many); a plain transfer moves only the payer's own coins, so the payer does.
 */
export type PaymentCharge =
  | { readonly _tag: "GrantOwner"; readonly owner: string }
  | { readonly _tag: "Payer"; readonly payer: string }

const ownGas = "pay gas from the payer's own coins"

/**
 * Every budget one payment build takes from, in the order taken: the day of whoever it is charged to, then
 * everyone's payments' minute, which bounds what the gas station spends. Counted apart from owners' own
 * sponsored calls (`gasAllowances`), so agents paying cannot use up what owners need to manage their grants,
 * nor the other way round.
 */
export const paymentAllowances = (charge: PaymentCharge, budgets: PaymentBudgets): ReadonlyArray<GasAllowance> => {
  const day: GasAllowance = charge._tag === "GrantOwner"
    ? {
      bucket: `sponsor_payment_gas_day:grant_owner:${normalizeSuiAddress(charge.owner)}`,
      quota: perDay(budgets.gasPerGrantOwnerPerDay),
      refusal: {
        message: `Today's sponsored gas for payments through this grant's owner is used: try again after Retry-After seconds, or ${ownGas}`,
        reason: "sponsor_grant_owner_budget"
      }
    }
    : {
      bucket: `sponsor_payment_gas_day:payer:${normalizeSuiAddress(charge.payer)}`,
      quota: perDay(budgets.gasPerPayerPerDay),
      refusal: { message: `Today's sponsored gas for this payer is used: try again after Retry-After seconds, or ${ownGas}`, reason: "sponsor_payer_budget" }
    }
  const everyone: GasAllowance = {
    bucket: "sponsor_payment_gas_minute",
    quota: perMinute(budgets.gasPerMinute),
    refusal: { message: `The sponsor's gas for payments this minute is used: try again after Retry-After seconds, or ${ownGas}`, reason: "sponsor_payment_budget" }
  }
  return [day, everyone]
}
