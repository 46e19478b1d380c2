import { Effect, Metric } from "effect"
import { type GasUsed, netCharge } from "@gateway/domain/sponsorship/GasBudget"

export const sponsorBalance = Metric.gauge("gateway_sponsor_balance_mist", {
  description: "The gas sponsor's SUI in all its coins, in MIST, as last read (every few seconds while it is asked for)"
})

export const sponsorCoins = Metric.gauge("gateway_sponsor_coins", {
  description: "How many coins the gas sponsor holds: its pool of gas coins, free or held by builds"
})

export const sponsorGasSpent = Metric.counter("gateway_sponsor_gas_spent_mist_total", {
  description: "Gas the sponsor paid (computation and storage less rebates, in MIST), by what for: owner (owners' own calls), payment (sign-first payments), own (session claims and closes)",
  incremental: true
})

/** A reading of the sponsor's coins. */
export const recordSponsorFunds = (coins: ReadonlyArray<{ readonly balance: bigint }>) =>
  Effect.andThen(
    Metric.update(sponsorBalance, Number(coins.reduce((sum, c) => sum + c.balance, 0n))),
    Metric.update(sponsorCoins, coins.length)
  )

/** What one executed transaction cost the sponsor. */
export const recordSponsorSpend = (purpose: "owner" | "payment" | "own", gas: GasUsed) =>
  Metric.update(Metric.withAttributes(sponsorGasSpent, { purpose }), Number(netCharge(gas)))
