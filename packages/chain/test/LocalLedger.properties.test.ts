import type { Keypair } from "@mysten/sui/cryptography"
import { fromBase64 } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { AbortCode, type AbortName, Events, eventType, type FunctionName, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { fundPool } from "../src/build/Kinds.ts"
import { Chain } from "../src/Chain.ts"
import { GAS_UNITS } from "../src/local/Executor.ts"
import type { LedgerObject } from "../src/local/LedgerObject.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"
import { execute, fund, ownerWithPool, PACKAGE, runOnLedger, seededEd25519 } from "./LedgerHarness.ts"

// === Steps ===

const often = (weight: number) => fc.oneof({ weight, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })

/** Amounts around the interesting limits: zero, within a payment cap, above it, above any budget. */
const Amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0n) },
  { weight: 6, arbitrary: fc.bigInt({ min: 1n, max: 60n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: 60n, max: 400n }) }
)

const Create = fc.record({
  op: fc.constant("create" as const),
  delegate: fc.nat({ max: 1 }),
  sessionCap: fc.bigInt({ min: 0n, max: 300n }),
  maxPerPayment: fc.bigInt({ min: 0n, max: 120n }),
  /** Expiry relative to now (ms), or none; some are already past. */
  expiresIn: fc.option(fc.integer({ min: -3_000, max: 120_000 }), { nil: null })
})
const Pay = fc.record({ op: fc.constant("pay" as const), grant: fc.nat(), byDelegate: often(3), other: fc.nat(), amount: Amount })
const OwnerOp = fc.oneof(
  { weight: 2, arbitrary: fc.constant("pause" as const) },
  { weight: 3, arbitrary: fc.constant("resume" as const) },
  { weight: 2, arbitrary: fc.constant("revoke" as const) }
)
const Owner = fc.record({ op: OwnerOp, grant: fc.nat(), byOwner: often(3), other: fc.nat() })
const Deposit = fc.record({ op: fc.constant("deposit" as const), byOwner: often(3), other: fc.nat(), amount: fc.bigInt({ min: 1n, max: 60n }) })
const Wait = fc.record({ op: fc.constant("wait" as const), ms: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 5_000, max: 30_000 })) })
/** Jump to one ms before a grant's expiry (still usable) or exactly onto it (expired). */
const ToExpiry = fc.record({ op: fc.constant("toExpiry" as const), grant: fc.nat(), offset: fc.constantFrom(-1, 0) })

const Step = fc.oneof(
  { weight: 2, arbitrary: Create },
  { weight: 8, arbitrary: Pay },
  { weight: 3, arbitrary: Owner },
  { weight: 1, arbitrary: Deposit },
  { weight: 2, arbitrary: Wait },
  { weight: 1, arbitrary: ToExpiry }
)
type Step = typeof Step extends fc.Arbitrary<infer S> ? S : never
const Steps = fc.array(Step, { minLength: 10, maxLength: 40, size: "max" })

// === Model ===

interface ModelGrant {
  readonly id: string
  readonly delegate: number
  readonly sessionCap: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
  spent: bigint
  paused: boolean
  revoked: boolean
}

interface Model {
  now: bigint
  readonly grants: Array<ModelGrant>
  poolBalance: bigint
  /** Everything that went into the pool: the opening deposit and every later one. */
  deposits: bigint
  paidOut: bigint
}

const START_MS = 1_000_000
const OPENING_DEPOSIT = 100n
const GAS_PRICE = 1000n

/** What the Move rules say a step must abort with, or undefined when it must succeed. */
const expectedAbort = (model: Model, step: Step, grant: ModelGrant | undefined): AbortName | undefined => {
  switch (step.op) {
    case "create":
      if (step.maxPerPayment === 0n || step.maxPerPayment > step.sessionCap) return "EInvalidCaps"
      if (step.expiresIn !== null && step.expiresIn <= 0) return "EExpired"
      return undefined
    case "deposit":
      return step.byOwner ? undefined : "ENotOwner"
    case "pay":
      if (grant === undefined) return undefined
      if (!step.byDelegate) return "ENotDelegate"
      if (step.amount === 0n) return "EZeroAmount"
      if (grant.revoked) return "ERevoked"
      if (grant.paused) return "EPaused"
      if (grant.expiryMs !== 0n && model.now >= grant.expiryMs) return "EExpired"
      if (step.amount > grant.maxPerPayment) return "EExceedsMaxPerPayment"
      if (step.amount > grant.sessionCap - grant.spent) return "EExceedsSessionCap"
      if (step.amount > model.poolBalance) return "EInsufficientBalance"
      return undefined
    case "revoke":
      if (!step.byOwner) return "ENotOwner"
      return grant?.revoked === true ? "EAlreadyRevoked" : undefined
    case "pause":
    case "resume":
      if (!step.byOwner) return "ENotOwner"
      if (grant?.revoked === true) return "ERevoked"
      if (step.op === "pause") return grant?.paused === true ? "EAlreadyPaused" : undefined
      return grant?.paused === true ? undefined : "ENotPaused"
    default:
      return undefined
  }
}

const functionOf: Record<"create" | "pay" | "pause" | "resume" | "revoke" | "deposit", FunctionName> = {
  create: "create_policy_grant",
  pay: "pay",
  pause: "pause_grant",
  resume: "resume_grant",
  revoke: "revoke_grant",
  deposit: "deposit"
}

/** Every step's outcome over all runs: the property must exercise every rule it checks. */
const seen = new Map<string, number>()
const count = (outcome: string) => seen.set(outcome, (seen.get(outcome) ?? 0) + 1)

const show = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))

// === Scenario ===

/**
 * Runs `steps` against a fresh ledger and the model side by side, checking
 * after every step; answers the digest of every transaction, in order.
 */
const scenario = (seed: number, steps: ReadonlyArray<Step>) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const chain = yield* Chain
    yield* TestClock.setTime(START_MS)

    const owner = seededEd25519(seed, 0)
    const delegates = [seededEd25519(seed, 1), seededEd25519(seed, 2)]
    const strangers = [seededEd25519(seed, 3), seededEd25519(seed, 4)]
    const recipient = seededEd25519(seed, 5).toSuiAddress()
    for (const signer of [...delegates, ...strangers]) yield* fund(signer)
    const pool = yield* ownerWithPool(owner, OPENING_DEPOSIT)
    const model: Model = { now: BigInt(START_MS), grants: [], poolBalance: OPENING_DEPOSIT, deposits: OPENING_DEPOSIT, paidOut: 0n }
    const digests: Array<string> = []

    const pick = <A>(items: ReadonlyArray<A>, n: number): A => {
      const item = items[n % items.length]
      if (item === undefined) throw new Error("pick from nothing")
      return item
    }
    const delegateOf = (grant: ModelGrant) => pick(delegates, grant.delegate)
    const nonOwner = (n: number) => pick([...delegates, ...strangers], n)
    const nonDelegate = (grant: ModelGrant, n: number) => pick([owner, ...delegates.filter((d) => d !== delegateOf(grant)), ...strangers], n)

    const objectOf = (id: string) =>
      Effect.flatMap(ledger.getObject(id), (found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.die(`object ${id} is gone`)))
    const gasOf = (signer: Keypair) =>
      Effect.map(ledger.ownedObjects(signer.toSuiAddress()), (objects) => {
        const coins = objects.filter((o) => o.data._tag === "Coin")
        assert.strictEqual(coins.length, 1, "every signer holds exactly its gas coin")
        const [gas] = coins
        if (gas === undefined || gas.data._tag !== "Coin") throw new Error("no gas coin")
        return { id: gas.id, balance: gas.data.balance }
      })
    /** Every object but the acting signer's gas coin. */
    const snapshot = (actor: Keypair) =>
      Effect.gen(function*() {
        const gas = yield* gasOf(actor)
        const shared = yield* Effect.forEach([pool.poolId, ...model.grants.map((g) => g.id)], objectOf)
        const owned = yield* Effect.forEach([owner, ...delegates, ...strangers].map((k) => k.toSuiAddress()).concat(recipient), ledger.ownedObjects)
        return [...shared, ...owned.flat()].filter((o) => o.id !== gas.id).sort((a, b) => a.id.localeCompare(b.id))
      })
    const paidToRecipient = Effect.map(ledger.ownedObjects(recipient), (coins) =>
      coins.reduce((sum, o) => sum + (o.data._tag === "Coin" ? o.data.balance : 0n), 0n))

    /** The ledger's view equals the model's, and the invariants hold on the ledger alone. */
    const checkAgainstModel = Effect.gen(function*() {
      assert.strictEqual(BigInt(yield* Clock.currentTimeMillis), model.now)
      const poolObject = yield* objectOf(pool.poolId)
      if (poolObject.data._tag !== "Pool") return assert.fail("the pool is not a Pool")
      assert.strictEqual(poolObject.data.balance, model.poolBalance, "pool balance")
      const paid = yield* paidToRecipient
      assert.strictEqual(paid, model.paidOut, "paid out")
      assert.strictEqual(poolObject.data.balance + paid, model.deposits, "pool balance + paid out = deposits")
      for (const grant of model.grants) {
        const object: LedgerObject = yield* objectOf(grant.id)
        if (object.data._tag !== "Grant") return assert.fail(`${grant.id} is not a Grant`)
        const { spent, sessionCap, maxPerPayment, expiryMs, paused, revoked, delegate, owner: grantOwner, poolId } = object.data
        assert.isTrue(spent <= sessionCap, "spent never exceeds the session cap")
        assert.deepStrictEqual(
          { spent, sessionCap, maxPerPayment, expiryMs, paused, revoked, delegate, grantOwner, poolId },
          {
            spent: grant.spent,
            sessionCap: grant.sessionCap,
            maxPerPayment: grant.maxPerPayment,
            expiryMs: grant.expiryMs,
            paused: grant.paused,
            revoked: grant.revoked,
            delegate: delegateOf(grant).toSuiAddress(),
            grantOwner: owner.toSuiAddress(),
            poolId: pool.poolId
          }
        )
      }
    })

    for (const step of steps) {
      if (step.op === "wait") {
        yield* TestClock.adjust(step.ms)
        model.now += BigInt(step.ms)
        continue
      }
      const grant = step.op === "create" || step.op === "deposit" ? undefined : model.grants[step.grant % Math.max(model.grants.length, 1)]
      if (step.op === "toExpiry") {
        const target = grant === undefined || grant.expiryMs === 0n ? undefined : grant.expiryMs + BigInt(step.offset)
        if (target !== undefined && target > model.now) {
          yield* TestClock.setTime(Number(target))
          model.now = target
        }
        continue
      }
      if (step.op !== "create" && step.op !== "deposit" && grant === undefined) continue

      // Who acts, and the kind they sign.
      let actor: Keypair = owner
      let kind: string
      switch (step.op) {
        case "create":
          kind = (yield* chain.buildCreateGrant({
            sender: owner.toSuiAddress(),
            pool,
            delegate: pick(delegates, step.delegate).toSuiAddress(),
            sessionCap: step.sessionCap,
            maxPerPayment: step.maxPerPayment,
            expiryMs: step.expiresIn === null ? 0n : model.now + BigInt(step.expiresIn),
            policyIds: [BigInt(seed)]
          })).txKindBytes
          break
        case "deposit":
          actor = step.byOwner ? owner : nonOwner(step.other)
          kind = (yield* Effect.promise(() =>
            fundPool(PACKAGE, {
              sender: actor.toSuiAddress(),
              coinType: SUI_COIN_TYPE,
              amount: step.amount,
              pool: { objectId: pool.poolId, initialSharedVersion: pool.initialSharedVersion },
              coins: []
            })
          )).txKindBytes
          break
        case "pay": {
          if (grant === undefined) continue
          actor = step.byDelegate ? delegateOf(grant) : nonDelegate(grant, step.other)
          const memo = new TextEncoder().encode(`step-${digests.length}`)
          kind = (yield* chain.buildPay({ sender: actor.toSuiAddress(), grantObjectId: grant.id, amount: step.amount, recipient, memo })).txKindBytes
          break
        }
        default: {
          if (grant === undefined) continue
          actor = step.byOwner ? owner : nonOwner(step.other)
          const input = { sender: actor.toSuiAddress(), grantObjectId: grant.id, kind: 0 }
          const build = step.op === "pause" ? chain.buildPause : step.op === "resume" ? chain.buildResume : chain.buildRevoke
          kind = (yield* build(input)).txKindBytes
        }
      }

      const abort = expectedAbort(model, step, grant)
      const before = yield* snapshot(actor)
      const gasBefore = yield* gasOf(actor)
      const result = yield* execute(kind, actor)
      digests.push(result.digest)
      const label = `${show(step)} at ${model.now} (grant ${show(grant)})`
      count(abort ?? `${step.op} ok`)
      const gasAfter = yield* gasOf(actor)

      if (abort !== undefined) {
        assert.strictEqual(result.status, "failure", `${label} must abort with ${abort}`)
        assert.strictEqual(result.error, `MoveAbort(spend_account::${functionOf[step.op]}, ${AbortCode[abort]}) ${abort}`, label)
        assert.deepStrictEqual(result.events, [], label)
        assert.deepStrictEqual(yield* snapshot(actor), before, `${label}: a failed transaction changes nothing but gas`)
        assert.strictEqual(gasAfter.balance, gasBefore.balance - GAS_UNITS * GAS_PRICE, `${label}: a failed transaction is charged gas`)
        yield* checkAgainstModel
        continue
      }

      assert.strictEqual(result.status, "success", `${label}: ${result.error}`)
      const [event, ...more] = result.events
      assert.strictEqual(more.length, 0, "one event a call")
      if (event === undefined) return assert.fail(`${label}: no event`)
      switch (step.op) {
        case "create": {
          assert.strictEqual(event.type, eventType(PACKAGE, "GrantCreated"))
          const created = Events.GrantCreated.parse(fromBase64(event.bcs))
          model.grants.push({
            id: created.grant_id,
            delegate: step.delegate % delegates.length,
            sessionCap: step.sessionCap,
            maxPerPayment: step.maxPerPayment,
            expiryMs: step.expiresIn === null ? 0n : model.now + BigInt(step.expiresIn),
            spent: 0n,
            paused: false,
            revoked: false
          })
          break
        }
        case "deposit":
          assert.strictEqual(event.type, eventType(PACKAGE, "Deposited"))
          assert.strictEqual(BigInt(Events.Deposited.parse(fromBase64(event.bcs)).amount), step.amount)
          model.poolBalance += step.amount
          model.deposits += step.amount
          assert.strictEqual(gasAfter.balance, gasBefore.balance - GAS_UNITS * GAS_PRICE - step.amount, "the deposit is split from gas")
          break
        case "pay": {
          if (grant === undefined) continue
          assert.strictEqual(event.type, eventType(PACKAGE, "PaymentMade"))
          const made = Events.PaymentMade.parse(fromBase64(event.bcs))
          assert.isTrue(BigInt(made.amount) <= grant.maxPerPayment, "no payment above max_per_payment")
          grant.spent += step.amount
          model.poolBalance -= step.amount
          model.paidOut += step.amount
          assert.strictEqual(BigInt(made.spent), grant.spent)
          break
        }
        case "pause":
        case "resume":
          if (grant === undefined) continue
          assert.strictEqual(event.type, eventType(PACKAGE, "GrantPauseSet"))
          assert.strictEqual(Events.GrantPauseSet.parse(fromBase64(event.bcs)).paused, step.op === "pause")
          grant.paused = step.op === "pause"
          break
        case "revoke":
          if (grant === undefined) continue
          assert.strictEqual(event.type, eventType(PACKAGE, "GrantRevoked"))
          grant.revoked = true
          break
      }
      yield* checkAgainstModel
    }

    // Over the whole run, from final events alone: every payment within its grant's limits.
    const payments = yield* ledger.finalEvents(eventType(PACKAGE, "PaymentMade"))
    for (const grant of model.grants) {
      const amounts = payments.map((p) => Events.PaymentMade.parse(fromBase64(p.event.bcs))).filter((p) => p.grant_id === grant.id).map((p) => BigInt(p.amount))
      assert.isTrue(amounts.every((a) => a > 0n && a <= grant.maxPerPayment), "every payment within max_per_payment")
      assert.isTrue(amounts.reduce((a, b) => a + b, 0n) <= grant.sessionCap, "total paid within session_cap")
    }
    return digests
  })

// === Properties ===

describe("LocalLedger against a model of the Move rules", () => {
  it("pays only within a grant's rules, lets only the owner steer it, and every abort changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), Steps, async (seed, steps) => {
        await runOnLedger(scenario(seed, steps))
      }),
      { seed: 20261123, numRuns: 50 }
    )
    // The runs must have reached every rule the model checks, and successes of every kind.
    const rules: ReadonlyArray<string> = [
      "ENotDelegate", "EZeroAmount", "ERevoked", "EPaused", "EExpired", "EExceedsMaxPerPayment", "EExceedsSessionCap",
      "EInsufficientBalance", "ENotOwner", "EAlreadyPaused", "ENotPaused", "EAlreadyRevoked", "EInvalidCaps",
      "create ok", "pay ok", "pause ok", "resume ok", "revoke ok", "deposit ok"
    ]
    assert.deepStrictEqual(rules.filter((r) => (seen.get(r) ?? 0) === 0), [], show(Object.fromEntries(seen)))
  })

  it("replays a seed in a fresh ledger with byte-identical digests", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), Steps, async (seed, steps) => {
        const first = await runOnLedger(scenario(seed, steps))
        const second = await runOnLedger(scenario(seed, steps))
        assert.deepStrictEqual(second, first)
        assert.strictEqual(new Set(first).size, first.length, "no two transactions share a digest")
      }),
      { seed: 7, numRuns: 5 }
    )
  })
})
