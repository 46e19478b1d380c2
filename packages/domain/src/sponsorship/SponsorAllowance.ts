import { type Quota, perDay, perMinute } from "../limits/Quota.ts"

/**
 * Whether an owner has anything at stake: sign-in is free, so an address that
 * has funded no spend account and runs no live service could be one of a
 * thousand fresh ones, and gets only a newcomer's allowance.
 */
export type Standing = "newcomer" | "staked"

export interface Stake {
  /** The owner's spend accounts (`Pool`s) on chain, with what each holds. */
  readonly poolBalances: ReadonlyArray<bigint>
  /** The owner's live services in the catalog. */
  readonly liveServices: number
}

/** Staked: a spend account holding more than zero, or a live service. */
export const standingOf = (stake: Stake): Standing =>
  stake.poolBalances.some((balance) => balance > 0n) || stake.liveServices > 0 ? "staked" : "newcomer"

/** The gas budgets, in MIST, SPONSOR_* settings give. */
export interface SponsorBudgets {
  readonly ownerGasPerDay: number
  readonly newcomerGasPerDay: number
  readonly gasPerMinute: number
  readonly newcomerGasPerMinute: number
}

/** One budget a sponsored build takes its gas budget from, and what a refusal by it says. */
export interface GasAllowance {
  readonly bucket: string
  readonly quota: Quota
  readonly refusal: { readonly message: string; readonly reason: string }
}

const ownGas = "pay gas from your own wallet"

/**
 * Every budget one build of `owner` takes from, in the order taken: the
 * owner's day (a newcomer's is smaller), then, for a newcomer, the newcomers'
 * share of the minute, so fresh addresses together cannot use up what owners
 * with stake need, then everyone's minute, which bounds the sponsor's spend.
 */
export const gasAllowances = (owner: string, standing: Standing, budgets: SponsorBudgets): ReadonlyArray<GasAllowance> => {
  const day: GasAllowance = standing === "staked"
    ? {
      bucket: `sponsor_gas_day:${owner}`,
      quota: perDay(budgets.ownerGasPerDay),
      refusal: { message: `Today's sponsored gas for this address is used: try again after Retry-After seconds, or ${ownGas}`, reason: "sponsor_owner_budget" }
    }
    : {
      bucket: `sponsor_gas_day:${owner}`,
      quota: perDay(budgets.newcomerGasPerDay),
      refusal: {
        message: `A new address gets a small sponsored allowance, used for today: fund a spend account, or ${ownGas}`,
        reason: "sponsor_newcomer_budget"
      }
    }
  const newcomers: ReadonlyArray<GasAllowance> = standing === "staked" ? [] : [{
    bucket: "sponsor_gas_newcomers",
    quota: perMinute(budgets.newcomerGasPerMinute),
    refusal: { message: `Sponsored gas for new addresses is used for this minute: try again after Retry-After seconds, or ${ownGas}`, reason: "sponsor_newcomers_busy" }
  }]
  const everyone: GasAllowance = {
    bucket: "sponsor_gas_minute",
    quota: perMinute(budgets.gasPerMinute),
    refusal: { message: `The sponsor's gas for this minute is used: try again after Retry-After seconds, or ${ownGas}`, reason: "sponsor_budget" }
  }
  return [day, ...newcomers, everyone]
}

/**
 * The first budget a build of `amount` MIST could never fit, however much of it is left: such a call is refused
 * as invalid, not told to come back after a window that cannot help it.
 */
export const neverFits = (allowances: ReadonlyArray<GasAllowance>, amount: bigint): GasAllowance | undefined =>
  allowances.find((allowance) => amount > BigInt(allowance.quota.limit))
