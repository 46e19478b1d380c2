/** What a transaction cost or would cost, in MIST, as Sui's effects report it. */
export interface GasUsed {
  readonly computationCost: bigint
  readonly storageCost: bigint
  readonly storageRebate: bigint
}

/** What a simulation says the transaction would do: succeed at this cost, or fail (an abort, or refused before execution). */
export type Simulation =
  | { readonly ok: true; readonly gas: GasUsed }
  | { readonly ok: false; readonly error: string }

/** Sui's safety margin on an estimated budget, in gas units (the SDK's and full node's `GAS_SAFE_OVERHEAD`). */
export const SAFE_OVERHEAD_UNITS = 1_000n

/** What the budget must cover: Sui checks computation plus storage against it before any rebate is paid. */
export const grossCost = (gas: GasUsed): bigint => gas.computationCost + gas.storageCost

/** What the gas owner actually paid: computation and storage less the rebate, never below zero. */
export const netCharge = (gas: GasUsed): bigint => {
  const net = gas.computationCost + gas.storageCost - gas.storageRebate
  return net > 0n ? net : 0n
}

export type BudgetDecision =
  | { readonly ok: true; readonly budget: bigint }
  | { readonly ok: false; readonly reason: string }

/**
 * The budget the sponsor sets from its own simulation: the gross cost plus a
 * small margin (a tenth, at least Sui's safe overhead at this price), so the
 * chain state moving a little between build and execution does not fail the
 * call, and capped by `cap`. A call whose simulated cost alone is over the cap
 * is not sponsored.
 */
export const budgetFromSimulation = (simulated: GasUsed, price: bigint, cap: bigint): BudgetDecision => {
  const gross = grossCost(simulated)
  if (gross > cap) return { ok: false, reason: `gas: the call costs ${gross} MIST, over the cap ${cap}` }
  const tenth = gross / 10n
  const overhead = SAFE_OVERHEAD_UNITS * price
  const budget = gross + (tenth > overhead ? tenth : overhead)
  return { ok: true, budget: budget < cap ? budget : cap }
}

/** What a reservation of `budget` did not spend once the transaction charged `gas`: given back to the budgets it came from. */
export const unspent = (budget: bigint, gas: GasUsed): bigint => {
  const spent = netCharge(gas)
  return spent >= budget ? 0n : budget - spent
}

/**
 * Why a build may no longer be co-signed, judged by a second simulation just
 * before co-signing, or undefined when it may: the chain may have moved since
 * the build, and what would abort now, or cost more than its budget, is refused.
 */
export const recheckRefusal = (simulated: Simulation, budget: bigint): string | undefined =>
  !simulated.ok
    ? `simulation: the call would abort now: ${simulated.error}`
    : grossCost(simulated.gas) > budget
    ? "simulation: the call would now cost more than its budget"
    : undefined
