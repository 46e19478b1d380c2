import { Effect } from "effect"
import { toBase64 } from "@mysten/sui/utils"
import { budgetFromSimulation } from "@gateway/domain/sponsorship/GasBudget"
import { sponsoredTransactionData } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { SponsoredTransaction } from "@gateway/domain/Sponsorship"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { checkSponsoredKind, checkSponsoredTransaction, ownedInputIds } from "@gateway/domain/verify/SponsoredTransaction"
import { AppConfig } from "../Config.ts"
import { decodeField, throttle } from "./OwnerRequest.ts"
import { releaseExpired } from "./ReleaseExpired.ts"
import { reserveCoin } from "./ReserveCoin.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { invalid } from "./SponsorErrors.ts"
import { SponsorNode } from "./SponsorNode.ts"

/**
 * Builds the whole sponsored transaction around an owner's call: only a
 * sponsored `spend_account` call taking the owner's own objects, at the
 * reference gas price, with a budget from the gateway's own simulation, taken
 * from the owner's and everyone's budgets, on one coin reserved for this build.
 */
export const sponsorTransaction = Effect.fn("Sponsorship.sponsor")(function*(owner: SuiAddress, txKindBytes: string) {
  const config = yield* AppConfig
  const node = yield* SponsorNode
  const budgets = yield* SponsorBudgets
  const { address: sponsor } = yield* SponsorAccount
  const pkg = config.spendAccountPackage
  const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)

  yield* throttle(owner)
  const kindBytes = yield* decodeField("txKindBytes", txKindBytes)
  const kind = checkSponsoredKind(kindBytes, pkg)
  if (!kind.ok) return yield* invalid(kind.reason)
  // Every owned object the call takes must be the owner's: the sponsor's own coins pay gas and nothing else.
  if (!(yield* node.allOwnedBy(ownedInputIds(kindBytes), owner))) return yield* invalid("inputs: an object the call takes is not the owner's")

  const { epoch, referenceGasPrice } = yield* node.epoch
  const gas = { sender: owner, sponsor, price: referenceGasPrice, epoch }
  // A call that would abort is refused here, before anything is reserved or handed out.
  const simulated = yield* node.simulate(sponsoredTransactionData(kindBytes, { ...gas, coin: undefined, budget: gasBudgetMax }))
  if (!simulated.ok) return yield* invalid(`simulation: the call would abort: ${simulated.error}`)
  const budget = budgetFromSimulation(simulated.gas, referenceGasPrice, gasBudgetMax)
  if (!budget.ok) return yield* invalid(budget.reason)

  yield* releaseExpired
  const taken = yield* budgets.take(owner, budget.budget)
  const build = yield* reserveCoin(owner, kindBytes, { ...gas, budget: budget.budget }, taken).pipe(Effect.tapError(() => budgets.giveBackAll(taken)))
  const txBytes = sponsoredTransactionData(kindBytes, { ...gas, coin: build.coin, budget: build.gasBudget })
  const checked = checkSponsoredTransaction(txBytes, { pkg, sender: owner, sponsor, gasBudgetMax, referenceGasPrice })
  if (!checked.ok) return yield* Effect.die(new Error(`the sponsor built bytes its own rules refuse: ${checked.reason}`))
  return {
    txBytes: toBase64(txBytes),
    sender: owner,
    sponsor,
    gasBudget: build.gasBudget.toString(),
    expiresAt: new Date(build.expiresAtMs).toISOString()
  } satisfies SponsoredTransaction
})
