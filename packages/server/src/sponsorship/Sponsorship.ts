import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import type { Invalid, Unavailable } from "@gateway/domain/Errors"
import type { SponsoredExecution, SponsoredTransaction } from "@gateway/domain/Sponsorship"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { CoinPool } from "./CoinPool.ts"
import { executeSponsored } from "./ExecuteSponsored.ts"
import { releaseExpired } from "./ReleaseExpired.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { unavailable } from "./SponsorErrors.ts"
import { SponsorKey } from "./SponsorKey.ts"
import { SponsorNode } from "./SponsorNode.ts"
import { sponsorTransaction } from "./SponsorTransaction.ts"
import { withServices } from "../UseCase.ts"

/** How often expired builds are released and their budgets given back, besides at every build. */
const SWEEP_INTERVAL = Duration.seconds(30)

/** What the use cases take from their context, besides the sponsor's account and its pool. */
type UseCaseServices = AppConfig | SponsorNode | ReservationRepo | SponsorBudgets | RateLimits

type SponsorshipShape = {
  sponsor(owner: SuiAddress, txKindBytes: string): Effect.Effect<SponsoredTransaction, Invalid | Unavailable | Limited>
  execute(owner: SuiAddress, txBytes: string, signature: string): Effect.Effect<SponsoredExecution, Invalid | Unavailable | Limited>
}

const off: SponsorshipShape = {
  sponsor: () => Effect.fail(unavailable("Gas sponsorship is off on this gateway: pay gas from your own wallet", "sponsorship_off")),
  execute: () => Effect.fail(unavailable("Gas sponsorship is off on this gateway: pay gas from your own wallet", "sponsorship_off"))
}

/**
 * Gas paid by the platform for an owner's own spend_account calls. The
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
  // Only these services, so each call keeps its own clock, tracer and parent span.
  const services = Context.pick(AppConfig, SponsorNode, ReservationRepo, SponsorBudgets, RateLimits)(yield* Effect.context<UseCaseServices>()).pipe(
    Context.add(SponsorAccount, account),
    Context.add(CoinPool, pool)
  )
  yield* Effect.forkScoped(Effect.repeat(Effect.ignore(Effect.provideContext(releaseExpired, services)), Schedule.spaced(SWEEP_INTERVAL)))
  return {
    sponsor: withServices(services)(sponsorTransaction),
    execute: withServices(services)(executeSponsored)
  } satisfies SponsorshipShape
})
