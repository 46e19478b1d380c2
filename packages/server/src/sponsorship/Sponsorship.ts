import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import type { Invalid, Unavailable } from "@gateway/domain/Errors"
import type { GasStationResponse } from "@gateway/domain/GasStation"
import type { SponsorFunds } from "@gateway/domain/sponsorship/BalanceFloor"
import type { GasUsed } from "@gateway/domain/sponsorship/GasBudget"
import type { SponsoredExecution, SponsoredTransaction } from "@gateway/domain/Sponsorship"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { CoinPool } from "./CoinPool.ts"
import { cosignPayment } from "./CosignPayment.ts"
import { executeSponsored } from "./ExecuteSponsored.ts"
import { heldPayment, type PaymentHold } from "./HeldPayment.ts"
import { releaseExpired } from "./ReleaseExpired.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { settledPayment } from "./SettledPayment.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorBalance } from "./SponsorBalance.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { unavailable } from "./SponsorErrors.ts"
import { SponsorKey } from "./SponsorKey.ts"
import { type Executed, SponsorNode } from "./SponsorNode.ts"
import { executeOwnCall } from "./SponsorOwnCall.ts"
import { sponsorPayment } from "./SponsorPayment.ts"
import { sponsorTransaction } from "./SponsorTransaction.ts"
import { withServices } from "../UseCase.ts"

/** How often expired builds are released and their budgets given back, besides at every build. */
const SWEEP_INTERVAL = Duration.seconds(30)

/** What the use cases take from their context, besides the sponsor's account and its pool. */
type UseCaseServices = AppConfig | SponsorNode | ReservationRepo | SponsorBudgets | RateLimits

type SponsorshipShape = {
  sponsor(owner: SuiAddress, txKindBytes: string): Effect.Effect<SponsoredTransaction, Invalid | Unavailable | Limited>
  execute(owner: SuiAddress, txBytes: string, signature: string): Effect.Effect<SponsoredExecution, Invalid | Unavailable | Limited>
  /** The gas station (`SponsorPayment.ts`): the whole transaction around one payment's kind, the sponsor as gas owner. */
  sponsorPayment(payer: SuiAddress, transactionKind: string): Effect.Effect<GasStationResponse, Invalid | Unavailable | Limited>
  /** Before forwarding: whether these are bytes the gas station built for this payer that the sponsor still holds gas for. Reads only. */
  heldPayment(payer: string, txBytes: Uint8Array): Effect.Effect<PaymentHold, Unavailable>
  /** At settlement, right before execution: the sponsor's one signature (base64) over these bytes; a second call is refused. */
  cosignPayment(payer: string, txBytes: Uint8Array): Effect.Effect<string, Invalid | Unavailable>
  /** After settlement: what an executed payment did not spend goes back; with `undefined` (never executed) all of it, and its coin. */
  settledPayment(txBytes: Uint8Array, gasUsed: GasUsed | undefined): Effect.Effect<void>
  /** The gateway's own call (session claims and closes), the sponsor sender and gas owner (`SponsorOwnCall.ts`). */
  executeOwnCall(kindBytes: Uint8Array, purpose: string): Effect.Effect<Executed, Invalid | Unavailable>
  /** The sponsor's address; none when sponsorship is off. */
  readonly sponsorAddress: Option.Option<SuiAddress>
  /** The sponsor's SUI against `SPONSOR_BALANCE_FLOOR_MIST` (read at most every few seconds); none when sponsorship is off. */
  readonly sponsorFunds: Effect.Effect<Option.Option<SponsorFunds>, Unavailable>
}

const OFF_FOR_OWNERS = "Gas sponsorship is off on this gateway: pay gas from your own wallet"
const OFF_FOR_PAYERS = "Gas sponsorship is off on this gateway: pay gas from the payer's own coins"

const off: SponsorshipShape = {
  sponsor: () => Effect.fail(unavailable(OFF_FOR_OWNERS, "sponsorship_off")),
  execute: () => Effect.fail(unavailable(OFF_FOR_OWNERS, "sponsorship_off")),
  sponsorPayment: () => Effect.fail(unavailable(OFF_FOR_PAYERS, "sponsorship_off")),
  heldPayment: () => Effect.fail(unavailable(OFF_FOR_PAYERS, "sponsorship_off")),
  cosignPayment: () => Effect.fail(unavailable(OFF_FOR_PAYERS, "sponsorship_off")),
  settledPayment: () => Effect.void,
  executeOwnCall: () => Effect.fail(unavailable("Gas sponsorship is off on this gateway: it cannot submit claims; sellers claim with their vouchers", "sponsorship_off")),
  sponsorAddress: Option.none(),
  sponsorFunds: Effect.succeed(Option.none())
}

/**
 * Gas paid by the platform for an owner's own spend_account calls, and for
 * agents' sign-first payments through the gas station (co-signed only at
 * settlement, after the seller answered). For owners, the
 * gateway builds the whole transaction itself (the reference gas price, a
 * budget from its own simulation, one coin reserved in the store for this
 * build), remembers it by digest, and co-signs only those exact bytes, once,
 * before the reservation expires, after the owner's signature verifies and a
 * second simulation shows the call still succeeds within its budget. The gas
 * budget is taken from the owner's and everyone's budgets at build time, and
 * what the transaction did not spend is given back.
 */
export class Sponsorship extends Context.Service<Sponsorship, SponsorshipShape>()("@gateway/server/Sponsorship") {
  static readonly layer = Layer.effect(
    Sponsorship,
    Effect.gen(function*() {
      const key = yield* SponsorKey
      return Option.isNone(key) ? Sponsorship.of(off) : Sponsorship.of(yield* sponsoring(key.value))
    })
  ).pipe(
    Layer.provide(Layer.mergeAll(SponsorKey.layer, SponsorNode.layer, ReservationRepo.layer, SponsorBudgets.layer))
  )
}

/** Sponsorship on: the sponsor's pool kept, expired builds swept, and the use cases given what they take. */
const sponsoring = Effect.fnUntraced(function*(key: Keypair) {
  const account = SponsorAccount.fromKey(key)
  const pool = yield* Effect.provideService(CoinPool.make, SponsorAccount, account)
  const balance = yield* Effect.provideService(SponsorBalance.make, SponsorAccount, account)
  // Only these services, so each call keeps its own clock, tracer and parent span.
  const services = Context.pick(AppConfig, SponsorNode, ReservationRepo, SponsorBudgets, RateLimits)(yield* Effect.context<UseCaseServices>()).pipe(
    Context.add(SponsorAccount, account),
    Context.add(CoinPool, pool),
    Context.add(SponsorBalance, balance)
  )
  yield* Effect.forkScoped(Effect.repeat(Effect.ignore(Effect.provideContext(releaseExpired, services)), Schedule.spaced(SWEEP_INTERVAL)))
  const bound = withServices(services)
  return {
    sponsor: bound(sponsorTransaction),
    execute: bound(executeSponsored),
    sponsorPayment: bound(sponsorPayment),
    heldPayment: bound(heldPayment),
    cosignPayment: bound(cosignPayment),
    settledPayment: bound(settledPayment),
    executeOwnCall: bound(executeOwnCall),
    sponsorAddress: Option.some(account.address),
    sponsorFunds: Effect.map(balance.funds, Option.some)
  } satisfies SponsorshipShape
})
