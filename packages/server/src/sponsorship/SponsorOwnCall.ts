import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { budgetFromSimulation } from "@gateway/domain/sponsorship/GasBudget"
import { sponsoredTransactionData } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import { AppConfig } from "../Config.ts"
import { recordSponsorSpend } from "../observability/SponsorMetrics.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { reserveCoin } from "./ReserveCoin.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorBalance } from "./SponsorBalance.ts"
import { invalid } from "./SponsorErrors.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** The holder of a sponsor's own build in the coin reservations: never an owner's address nor a payment's. */
const OWN_HOLDER_PREFIX = "sponsor-own:"

/**
 * A call the gateway itself makes on chain, the sponsor both sender and gas owner: claims and closes of payment
 * sessions for sellers (anyone may submit them; they pay only the payee and the pool). One reserved coin, a budget
 * from a simulation capped by `SPONSOR_GAS_BUDGET_MAX`, expiring with the epoch, signed once and executed; the
 * coin goes back when the effects are known. Not counted against owners' or payments' budgets: the balance floor
 * bounds it, and the claim rounds bound how often it runs.
 */
export const executeOwnCall = Effect.fn("Sponsorship.executeOwnCall")(function*(kindBytes: Uint8Array, purpose: string) {
  const config = yield* AppConfig
  const node = yield* SponsorNode
  const balance = yield* SponsorBalance
  const repo = yield* ReservationRepo
  const account = yield* SponsorAccount
  yield* balance.aboveFloor
  const { epoch, referenceGasPrice } = yield* node.epoch
  const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)
  const gas = { sender: account.address, sponsor: account.address, price: referenceGasPrice, epoch }
  const simulated = yield* node.simulate(sponsoredTransactionData(kindBytes, { ...gas, coin: undefined, budget: gasBudgetMax }))
  if (!simulated.ok) return yield* invalid(`simulation: the ${purpose} would abort: ${simulated.error}`)
  const budget = budgetFromSimulation(simulated.gas, referenceGasPrice, gasBudgetMax)
  if (!budget.ok) return yield* invalid(budget.reason)
  // A holder of its own: a second build for the same holder would release this one's coin (`reserveCoin`).
  const build = yield* reserveCoin(`${OWN_HOLDER_PREFIX}${purpose}:${randomUUID()}`, kindBytes, { ...gas, budget: budget.budget }, [])
  const bytes = sponsoredTransactionData(kindBytes, { ...gas, coin: build.coin, budget: build.gasBudget })
  const signature = yield* account.sign(bytes)
  const executed = yield* node.execute(bytes, [signature]).pipe(
    Effect.catchTag("ExecuteRefused", (refused) => Effect.fail(invalid(`chain: refused the ${purpose}: ${refused.reason}`)))
  )
  yield* Effect.ignore(repo.releaseExecuted(build.digest))
  yield* recordSponsorSpend("own", executed.gas)
  return executed
})
