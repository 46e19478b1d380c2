import { Clock, Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import type { GasStationResponse } from "@gateway/domain/GasStation"
import { budgetFromSimulation } from "@gateway/domain/sponsorship/GasBudget"
import type { PaymentCharge } from "@gateway/domain/sponsorship/PaymentAllowance"
import { type SponsoredGas, sponsoredTransactionData } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { checkPaymentKind, type PaymentShape, readPaymentTransaction } from "@gateway/domain/verify/PaymentTransaction"
import { checkSponsoredPayment } from "@gateway/domain/verify/SponsoredPayment"
import { ownedInputIds } from "@gateway/domain/verify/SponsoredTransaction"
import { AppConfig } from "../Config.ts"
import { decodeField } from "./OwnerRequest.ts"
import { throttlePayer } from "./PayerRequest.ts"
import { paymentHolder } from "./PaymentHolder.ts"
import { releaseExpired } from "./ReleaseExpired.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { reserveCoin } from "./ReserveCoin.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorBalance } from "./SponsorBalance.ts"
import type { Build } from "./SponsorBuild.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { invalid } from "./SponsorErrors.ts"
import { SponsorNode } from "./SponsorNode.ts"

/**
 * The budget a payment is simulated at, when the cap is lower: enough for any payment, so one that costs more
 * than a low cap is refused as over the cap, not as running out of gas. The simulation runs on a coin the node
 * makes up, so it costs the sponsor nothing.
 */
const SIMULATION_BUDGET_MIN = 50_000_000n

/** The gas of a payment the payer sends and the sponsor pays for, its coin and budget aside. */
interface PaymentGas extends Omit<SponsoredGas, "coin" | "budget"> {
  readonly sender: SuiAddress
  readonly sponsor: SuiAddress
}

const answer = (txBytes: Uint8Array, gas: PaymentGas, build: Pick<Build, "gasBudget" | "expiresAtMs">): GasStationResponse => ({
  transaction: toBase64(txBytes),
  sender: gas.sender,
  sponsor: gas.sponsor,
  gasBudget: build.gasBudget.toString(),
  expiresAt: new Date(build.expiresAtMs).toISOString()
})

/** The payer's build of this very payment, still held in this epoch, handed out again: a repeated request takes no second coin or budget. */
const heldAgain = Effect.fnUntraced(function*(holder: string, kindBytes: Uint8Array, gas: PaymentGas) {
  const repo = yield* ReservationRepo
  const found = yield* repo.findReservedBuild(holder, yield* Clock.currentTimeMillis)
  if (Option.isNone(found) || found.value.epoch !== gas.epoch) return Option.none<GasStationResponse>()
  const build = found.value
  const txBytes = sponsoredTransactionData(kindBytes, { ...gas, coin: build.coin, budget: build.gasBudget })
  // Another price than at the build (it changes only with the epoch) makes other bytes: those are built afresh.
  if (TransactionDataBuilder.getDigestFromBytes(txBytes) !== build.digest) return Option.none<GasStationResponse>()
  return Option.some(answer(txBytes, gas, build))
})

/** Whom the payment's gas is charged to (`paymentAllowances`): a grant payment's grant owner, as the chain says; a transfer's payer. */
const chargeOf = Effect.fnUntraced(function*(payer: SuiAddress, shape: PaymentShape) {
  if (shape._tag === "Transfer") return { _tag: "Payer", payer } satisfies PaymentCharge
  const node = yield* SponsorNode
  return { _tag: "GrantOwner", owner: yield* node.grantOwner(shape.grantObjectId) } satisfies PaymentCharge
})

/**
 * The gas station: builds the whole transaction around a payer's payment with the sponsor as gas owner. Only the
 * two payments an `exact` payer signs (`checkPaymentKind`), taking only the payer's own objects, that succeed in
 * the gateway's own simulation; at the reference gas price, expiring with the current epoch, with a budget from
 * that simulation within `SPONSOR_GAS_BUDGET_MAX`, taken from the payments' gas budgets (`paymentAllowances`: the
 * grant owner's day for a grant payment, the payer's for a transfer, and everyone's minute), on one sponsor coin
 * held for this payment until `expiresAt`. Nothing is co-signed here: the sponsor signs at settlement
 * (`cosignPayment`), once.
 */
export const sponsorPayment = Effect.fn("Sponsorship.sponsorPayment")(function*(payer: SuiAddress, transactionKind: string) {
  const config = yield* AppConfig
  const node = yield* SponsorNode
  const budgets = yield* SponsorBudgets
  const balance = yield* SponsorBalance
  const { address: sponsor } = yield* SponsorAccount
  const pkg = config.spendAccountPackage
  const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)

  yield* balance.aboveFloor
  yield* throttlePayer(payer)
  const kindBytes = yield* decodeField("transactionKind", transactionKind)
  const kind = checkPaymentKind(kindBytes, pkg)
  if (!kind.ok) return yield* invalid(kind.reason)
  const holder = paymentHolder(payer, kindBytes)
  const { epoch, referenceGasPrice } = yield* node.epoch
  const gas: PaymentGas = { sender: payer, sponsor, price: referenceGasPrice, epoch }
  const again = yield* heldAgain(holder, kindBytes, gas)
  if (Option.isSome(again)) return again.value

  // Every owned object the payment takes must be the payer's: the sponsor's coins pay gas and nothing else.
  if (!(yield* node.allOwnedBy(ownedInputIds(kindBytes), payer))) {
    return yield* invalid("inputs: an object the payment takes is not the payer's (the request's sender)")
  }
  const simulationBudget = gasBudgetMax > SIMULATION_BUDGET_MIN ? gasBudgetMax : SIMULATION_BUDGET_MIN
  const simulated = yield* node.simulate(sponsoredTransactionData(kindBytes, { ...gas, coin: undefined, budget: simulationBudget }))
  if (!simulated.ok) return yield* invalid(`simulation: the payment would abort: ${simulated.error}`)
  const budget = budgetFromSimulation(simulated.gas, referenceGasPrice, gasBudgetMax)
  if (!budget.ok) return yield* invalid(budget.reason)

  // After the simulation, which proved a grant payment's Grant real: its owner is read once, and only then.
  const charge = yield* chargeOf(payer, kind.value)
  yield* releaseExpired
  const taken = yield* budgets.takeForPayment(charge, budget.budget)
  const build = yield* reserveCoin(holder, kindBytes, { ...gas, budget: budget.budget }, taken).pipe(Effect.tapError(() => budgets.giveBackAll(taken)))
  const txBytes = sponsoredTransactionData(kindBytes, { ...gas, coin: build.coin, budget: build.gasBudget })
  const read = readPaymentTransaction(txBytes, pkg)
  const checked = read.ok ? checkSponsoredPayment(read.value, { payer, sponsor, referenceGasPrice, gasBudgetMax, epoch }) : read
  if (!checked.ok) return yield* Effect.die(new Error(`the gas station built bytes its own rules refuse: ${checked.reason}`))
  return answer(txBytes, gas, build)
})
