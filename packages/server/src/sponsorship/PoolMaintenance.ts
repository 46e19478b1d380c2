import { Effect } from "effect"
import { Transaction } from "@mysten/sui/transactions"
import type { PoolPlan, PoolShape } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { budgetFromSimulation } from "@gateway/domain/sponsorship/GasBudget"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** What one maintenance transaction is made of, its budget aside. */
interface Maintenance {
  readonly sponsor: string
  readonly plan: PoolPlan
  readonly coinMist: bigint
  readonly epoch: bigint
  readonly price: bigint
}

const maintenanceBytes = ({ sponsor, plan, coinMist, epoch, price }: Maintenance, budget: bigint) =>
  Effect.promise(() => {
    const tx = new Transaction()
    tx.setSender(sponsor)
    tx.setGasOwner(sponsor)
    tx.setGasPayment([plan.source, ...plan.merge].map((c) => ({ objectId: c.objectId, version: c.version, digest: c.digest })))
    tx.setGasPrice(price)
    tx.setGasBudget(budget)
    tx.setExpiration({ Epoch: epoch.toString() })
    if (plan.split === 0) {
      tx.transferObjects([tx.gas], sponsor)
    } else {
      const parts = tx.splitCoins(tx.gas, Array.from({ length: plan.split }, () => coinMist))
      tx.transferObjects(Array.from({ length: plan.split }, (_, i) => parts[i]).filter((p) => p !== undefined), sponsor)
    }
    return tx.build()
  })

/**
 * One maintenance transaction, budgeted from its own simulation: the sponsor sends it to itself, paying gas from
 * the source (the chain merges the other gas coins into it). True when it executed.
 */
export const maintain = Effect.fnUntraced(function*(plan: PoolPlan, shape: PoolShape, epoch: bigint, price: bigint) {
  const node = yield* SponsorNode
  const account = yield* SponsorAccount
  const maintenance: Maintenance = { sponsor: account.address, plan, coinMist: shape.coinMist, epoch, price }
  // What the source keeps for a maintenance transaction's gas is all one may budget.
  const budgetMax = shape.gasReserve
  const total = plan.merge.reduce((sum, c) => sum + c.balance, plan.source.balance)
  const simulated = yield* node.simulate(yield* maintenanceBytes(maintenance, total < budgetMax ? total : budgetMax))
  if (!simulated.ok) return yield* Effect.as(Effect.logWarning("sponsor pool maintenance would fail", simulated.error), false)
  const budget = budgetFromSimulation(simulated.gas, price, budgetMax)
  if (!budget.ok) return yield* Effect.as(Effect.logWarning("sponsor pool maintenance over its budget", budget.reason), false)
  const bytes = yield* maintenanceBytes(maintenance, budget.budget)
  const signature = yield* account.sign(bytes)
  const executed = yield* node.execute(bytes, [signature])
  yield* Effect.logInfo("sponsor pool maintained", { split: plan.split, merged: plan.merge.length, digest: executed.digest, status: executed.status })
  return executed.status === "success"
})
