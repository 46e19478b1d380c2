import { Clock, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { Invalid, Unavailable } from "@gateway/domain/Errors"
import { perMinute } from "@gateway/domain/limits/Quota"
import type { PoolCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { budgetFromSimulation, grossCost, unspent } from "@gateway/domain/sponsorship/GasBudget"
import { type SponsoredGas, sponsoredTransactionData } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { SponsoredExecution, SponsoredTransaction } from "@gateway/domain/Sponsorship"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { checkSponsoredKind, checkSponsoredTransaction, ownedInputIds } from "@gateway/domain/verify/SponsoredTransaction"
import { AppConfig } from "../Config.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits, type Taken } from "../limits/RateLimits.ts"
import { makeCoinPool } from "./CoinPool.ts"
import { type Build, ReservationRepo } from "./ReservationRepo.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { SponsorKey } from "./SponsorKey.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** Candidate coins one build tries (a fresh build's bytes for each): enough to get past replicas racing for the same ones. */
const CANDIDATES_PER_BUILD = 8

/** How often expired builds are released and their budgets given back, besides at every build. */
const SWEEP_INTERVAL = Duration.seconds(30)

const invalid = (reason: string) => new Invalid({ message: "The platform does not sponsor this transaction", reason })
const unavailable = (message: string, reason: string) => new Unavailable({ message, reason })
const notBuilt = () =>
  invalid("txBytes: not a transaction the sponsor built for you, or one it released (a newer build, expiry or execution): ask POST /v1/sponsored-transactions again")

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
      return Option.isNone(key) ? Sponsorship.of(off) : Sponsorship.of(yield* makeSponsorship(key.value))
    })
  ).pipe(
    Layer.provide(Layer.mergeAll(SponsorKey.layer, SponsorNode.layer, ReservationRepo.layer, SponsorBudgets.layer))
  )
}

const makeSponsorship = (sponsorKey: Keypair) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const node = yield* SponsorNode
    const repo = yield* ReservationRepo
    const budgets = yield* SponsorBudgets
    const limits = yield* RateLimits
    const pool = yield* makeCoinPool(sponsorKey)
    const pkg = config.spendAccountPackage
    const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)
    const sponsorAddress = SuiAddress.make(normalizeSuiAddress(sponsorKey.toSuiAddress()))

    const throttle = (owner: SuiAddress) =>
      limits.take(`sponsor_requests:${owner}`, perMinute(config.sponsorPerOwnerPerMinute), {
        message: "Too many sponsorship requests: try again after Retry-After seconds, or pay gas from your own wallet",
        reason: "sponsorship_rate_limited"
      })

    const decode = (field: string, text: string) => Effect.try({ try: () => fromBase64(text), catch: () => invalid(`${field}: not base64`) })

    /** Expired builds hold nothing and can never be co-signed: their coins go back to the pool and their budgets to their owners. */
    const releaseExpired = Effect.flatMap(Clock.currentTimeMillis, repo.releaseExpired).pipe(
      Effect.flatMap((released) => Effect.forEach(released, budgets.giveBackAll, { discard: true }))
    )
    yield* Effect.forkScoped(Effect.repeat(Effect.ignore(releaseExpired), Schedule.spaced(SWEEP_INTERVAL)))

    /** Reserves a free coin for this owner's build (releasing the owner's previous one); the build's bytes are made for that coin. */
    const reserve = (owner: SuiAddress, kindBytes: Uint8Array, gas: Omit<SponsoredGas, "coin">, taken: ReadonlyArray<Taken>) =>
      Effect.gen(function*() {
        const expiresAtMs = (yield* Clock.currentTimeMillis) + config.sponsorReservationMs
        const buildFor = (coin: PoolCoin): Build => {
          const bytes = sponsoredTransactionData(kindBytes, { ...gas, coin })
          return {
            coin: { objectId: coin.objectId, version: coin.version, digest: coin.digest },
            holder: owner,
            digest: TransactionDataBuilder.getDigestFromBytes(bytes),
            gasBudget: gas.budget,
            taken,
            expiresAtMs,
            epoch: gas.epoch
          }
        }
        const attempt = Effect.gen(function*() {
          const { coins, runsLow, funded } = yield* pool.candidates(gas.budget)
          const { reserved, released } = yield* repo.reserveBuild(owner, coins.slice(0, CANDIDATES_PER_BUILD).map(buildFor))
          yield* Effect.forEach(released, budgets.giveBackAll, { discard: true })
          // Running low: a round in the background, so the next builds find coins.
          if (runsLow && Option.isSome(reserved)) yield* pool.refill
          return { reserved, funded }
        })
        const first = yield* attempt
        // No coin free: a round of the pool now (if this replica leads) and one more try.
        const { reserved, funded } = Option.isSome(first.reserved) ? first : yield* Effect.andThen(pool.roundNow, attempt)
        if (Option.isSome(reserved)) return reserved.value
        return yield* unavailable(
          "The sponsor has no gas free right now: try again shortly, or pay gas from your own wallet",
          funded ? "sponsor_busy" : "sponsor_unfunded"
        )
      })

    const sponsor = Effect.fn("Sponsorship.sponsor")(function*(owner: SuiAddress, txKindBytes: string) {
      yield* throttle(owner)
      const kindBytes = yield* decode("txKindBytes", txKindBytes)
      const kind = checkSponsoredKind(kindBytes, pkg)
      if (!kind.ok) return yield* invalid(kind.reason)
      // Every owned object the call takes must be the owner's: the sponsor's own coins pay gas and nothing else.
      if (!(yield* node.allOwnedBy(ownedInputIds(kindBytes), owner))) return yield* invalid("inputs: an object the call takes is not the owner's")

      const { epoch, referenceGasPrice } = yield* node.epoch
      const gas = { sender: owner, sponsor: sponsorAddress, price: referenceGasPrice, epoch }
      // A call that would abort is refused here, before anything is reserved or handed out.
      const simulated = yield* node.simulate(sponsoredTransactionData(kindBytes, { ...gas, coin: undefined, budget: gasBudgetMax }))
      if (!simulated.ok) return yield* invalid(`simulation: the call would abort: ${simulated.error}`)
      const budget = budgetFromSimulation(simulated.gas, referenceGasPrice, gasBudgetMax)
      if (!budget.ok) return yield* invalid(budget.reason)

      yield* releaseExpired
      const taken = yield* budgets.take(owner, budget.budget)
      const build = yield* reserve(owner, kindBytes, { ...gas, budget: budget.budget }, taken).pipe(Effect.tapError(() => budgets.giveBackAll(taken)))
      const txBytes = sponsoredTransactionData(kindBytes, { ...gas, coin: build.coin, budget: build.gasBudget })
      const checked = checkSponsoredTransaction(txBytes, { pkg, sender: owner, sponsor: sponsorAddress, gasBudgetMax, referenceGasPrice })
      if (!checked.ok) return yield* Effect.die(new Error(`the sponsor built bytes its own rules refuse: ${checked.reason}`))
      return {
        txBytes: toBase64(txBytes),
        sender: owner,
        sponsor: sponsorAddress,
        gasBudget: build.gasBudget.toString(),
        expiresAt: new Date(build.expiresAtMs).toISOString()
      }
    })

    const execute = Effect.fn("Sponsorship.execute")(function*(owner: SuiAddress, txBytes: string, signature: string) {
      yield* throttle(owner)
      const bytes = yield* decode("txBytes", txBytes)
      // The digest names exactly these bytes: anything the gateway did not build for this owner has none it remembers.
      const digest = yield* Effect.try({ try: () => TransactionDataBuilder.getDigestFromBytes(bytes), catch: notBuilt })
      const found = yield* repo.findBuild(digest)
      if (Option.isNone(found) || found.value.holder !== owner) return yield* notBuilt()
      const build = found.value
      if (build.state === "signed") return yield* invalid("txBytes: already co-signed once")
      if (build.expiresAtMs <= (yield* Clock.currentTimeMillis)) return yield* invalid("txBytes: the sponsor's reservation expired: ask for sponsorship again")

      const { epoch, referenceGasPrice } = yield* node.epoch
      if (epoch > build.epoch) return yield* invalid("txBytes: expired with its epoch: ask for sponsorship again")
      const checked = checkSponsoredTransaction(bytes, { pkg, sender: owner, sponsor: sponsorAddress, gasBudgetMax, referenceGasPrice })
      if (!checked.ok) return yield* invalid(checked.reason)
      const signedByOwner = yield* Effect.tryPromise(() => verifyTransactionSignature(bytes, signature, { address: owner })).pipe(
        Effect.as(true),
        Effect.orElseSucceed(() => false)
      )
      if (!signedByOwner) return yield* invalid("signature: not the owner's signature over txBytes")

      // The chain may have moved since the build: what would abort now, or cost more than its budget, is not co-signed and costs nothing.
      const simulated = yield* node.simulate(bytes)
      const refusal = !simulated.ok
        ? `simulation: the call would abort now: ${simulated.error}`
        : grossCost(simulated.gas) > build.gasBudget
        ? "simulation: the call would now cost more than its budget"
        : undefined
      if (refusal !== undefined) {
        if (yield* repo.releaseUnsigned(digest)) yield* budgets.giveBackAll(build.taken)
        return yield* invalid(refusal)
      }

      // Uninterruptible from the claim to the release: an owner who hangs up cannot leave a co-signed coin held.
      return yield* Effect.uninterruptible(cosignAndExecute(owner, digest, bytes, signature, build))
    })

    const cosignAndExecute = Effect.fnUntraced(function*(owner: SuiAddress, digest: string, bytes: Uint8Array, signature: string, build: Build) {
      // At most one co-signature per build, and only while its reservation holds.
      if (!(yield* repo.claimForSigning(digest, owner, yield* Clock.currentTimeMillis))) {
        return yield* invalid("txBytes: already co-signed, released or expired: ask for sponsorship again")
      }
      const cosigned = yield* Effect.promise(() => sponsorKey.signTransaction(bytes))
      // On a refusal or an unknown outcome the coin version stays held and the whole budget counts as spent.
      const executed = yield* node.execute(bytes, [signature, cosigned.signature]).pipe(
        Effect.catchTag("ExecuteRefused", (refused) => Effect.fail(invalid(`chain: refused the transaction: ${refused.reason}`)))
      )
      yield* budgets.giveBack(build.taken, unspent(build.gasBudget, executed.gas))
      yield* Effect.ignore(repo.releaseExecuted(digest))
      return { digest: executed.digest, status: executed.status, error: executed.error }
    })

    return { sponsor, execute } satisfies SponsorshipShape
  })
