import { Clock, Duration, Effect, Option, Schedule, Semaphore } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import { Transaction } from "@mysten/sui/transactions"
import { buildCoins, type PoolPlan, type PoolShape, planPool, runsLow } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { budgetFromSimulation } from "@gateway/domain/sponsorship/GasBudget"
import { AppConfig } from "../Config.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorFaucet } from "./SponsorFaucet.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** How often every replica tries for a maintenance round; only the one that wins the leader's lock does it. */
const ROUND_INTERVAL = Duration.seconds(30)

/** With a faucet (local mode) the sponsor is kept funded with at least this many of its gifts. */
const FAUCET_GIFTS = 4n

/** A maintenance transaction may budget this many times a sponsored one: splitting many coins stores many objects. */
const MAINTENANCE_BUDGET_FACTOR = 10n

/** Rounds right after start-up (in the background), until the pool is as full as the funds allow. */
const STARTUP_ROUNDS = 8

const shuffled = <A>(items: ReadonlyArray<A>): Array<A> => {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    const a = copy[i]
    const b = copy[j]
    if (a !== undefined && b !== undefined) {
      copy[i] = b
      copy[j] = a
    }
  }
  return copy
}

/**
 * The sponsor's pool of gas coins. Builds take the free coins (`candidates`);
 * one leader at a time (the replica whose maintenance claim wins an advisory
 * lock, `ReservationRepo.claimMaintenance`) splits the largest free coin into
 * `SPONSOR_POOL_COINS` coins of `SPONSOR_COIN_MIST` and merges free dust back
 * into it, every `ROUND_INTERVAL` and whenever a build sees the pool run low,
 * so owners holding builds never leave the others without a coin. A round
 * also stops holding co-signed coin versions that can no longer execute.
 */
export const makeCoinPool = (sponsorKey: Keypair) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const node = yield* SponsorNode
    const repo = yield* ReservationRepo
    const faucet = yield* Effect.serviceOption(SponsorFaucet)
    const scope = yield* Effect.scope
    const sponsor = sponsorKey.toSuiAddress()
    const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)
    const maintenanceBudgetMax = MAINTENANCE_BUDGET_FACTOR * gasBudgetMax
    const shape: PoolShape = {
      coins: config.sponsorPoolCoins,
      coinMist: BigInt(config.sponsorCoinMist),
      dustBelow: gasBudgetMax,
      gasReserve: maintenanceBudgetMax
    }
    if (shape.coinMist < gasBudgetMax) {
      return yield* Effect.die(new Error("SPONSOR_COIN_MIST must be at least SPONSOR_GAS_BUDGET_MAX: a smaller coin cannot pay a sponsored budget"))
    }

    /**
     * One maintenance transaction, budgeted from its own simulation: the sponsor sends it to itself, paying gas from
     * the source (the chain merges the other gas coins into it). True when it executed.
     */
    const maintain = (plan: PoolPlan, epoch: bigint, price: bigint) =>
      Effect.gen(function*() {
        const bytesAt = (budget: bigint) =>
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
              const parts = tx.splitCoins(tx.gas, Array.from({ length: plan.split }, () => shape.coinMist))
              tx.transferObjects(Array.from({ length: plan.split }, (_, i) => parts[i]).filter((p) => p !== undefined), sponsor)
            }
            return tx.build()
          })
        const total = plan.merge.reduce((sum, c) => sum + c.balance, plan.source.balance)
        const simulated = yield* node.simulate(yield* bytesAt(total < maintenanceBudgetMax ? total : maintenanceBudgetMax))
        if (!simulated.ok) return yield* Effect.as(Effect.logWarning("sponsor pool maintenance would fail", simulated.error), false)
        const budget = budgetFromSimulation(simulated.gas, price, maintenanceBudgetMax)
        if (!budget.ok) return yield* Effect.as(Effect.logWarning("sponsor pool maintenance over its budget", budget.reason), false)
        const bytes = yield* bytesAt(budget.budget)
        const { signature } = yield* Effect.promise(() => sponsorKey.signTransaction(bytes))
        const executed = yield* node.execute(bytes, [signature])
        yield* Effect.logInfo("sponsor pool maintained", { split: plan.split, merged: plan.merge.length, digest: executed.digest, status: executed.status })
        return executed.status === "success"
      })

    /** One round; a failure (chain or store down) is logged and the next round tries again. */
    const round = Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      const { epoch, referenceGasPrice } = yield* node.epoch
      const coins = yield* node.coins(sponsor)
      const held = yield* repo.held
      // A co-signed coin version that is no longer the coin's current one (or whose epoch ended) can never execute.
      const current = new Set(coins.map((c) => `${c.objectId}@${c.version}`))
      const dead = held.filter((h) => h.state === "signed" && (!current.has(`${h.coinId}@${h.coinVersion}`) || h.epoch < epoch))
      if (dead.length > 0) yield* repo.dropSigned(dead)
      const stillHeld = new Set(held.filter((h) => !dead.includes(h)).map((h) => h.coinId))
      const plan = planPool(coins, stillHeld, shape)
      if (plan === undefined) return false
      const touched = [plan.source, ...plan.merge]
      const claimed = yield* repo.claimMaintenance({ sponsor, coins: touched, nowMs, expiresAtMs: nowMs + config.sponsorReservationMs, epoch })
      if (!claimed) return false
      return yield* maintain(plan, epoch, referenceGasPrice).pipe(Effect.ensuring(Effect.ignore(repo.releaseMaintenance(touched))))
    }).pipe(
      Effect.catch((error) => Effect.as(Effect.logWarning("sponsor pool round failed", error), false)),
      Effect.withSpan("CoinPool.round")
    )

    // One round at a time on this replica; the store's lock keeps replicas apart.
    const lock = yield* Semaphore.make(1)
    const roundNow = lock.withPermits(1)(round)
    const refill = Effect.asVoid(Effect.forkIn(lock.withPermitsIfAvailable(1)(round), scope))

    /** Coins a build may take that can pay `budget`, in random order so replicas rarely race for one. */
    const candidates = (budget: bigint) =>
      Effect.gen(function*() {
        const [coins, held] = yield* Effect.all([node.coins(sponsor), repo.held], { concurrency: 2 })
        const free = buildCoins(coins, new Set(held.map((h) => h.coinId)), shape)
        return { coins: shuffled(free.filter((c) => c.balance >= budget)), runsLow: runsLow(free.length, shape), funded: coins.some((c) => c.balance >= budget) }
      })

    // Local mode funds its own sponsor from the faucet, as a developer would: a restart finds the funds already there.
    if (Option.isSome(faucet)) {
      const { amount, give } = faucet.value
      const held = (yield* Effect.orDie(node.coins(sponsor))).reduce((sum, c) => sum + c.balance, 0n)
      for (let funded = held; funded < FAUCET_GIFTS * amount; funded += amount) yield* give(sponsor)
    }
    // Filled in the background, so a start never waits on the chain; a build that finds no coin runs a round itself.
    const fill = Effect.gen(function*() {
      for (let i = 0; i < STARTUP_ROUNDS; i++) {
        if (!(yield* roundNow)) break
      }
    })
    yield* Effect.forkScoped(fill.pipe(Effect.andThen(Effect.repeat(lock.withPermitsIfAvailable(1)(round), Schedule.spaced(ROUND_INTERVAL)))))

    return { candidates, roundNow, refill }
  })
