import { fromBase64 } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { AbortCode, type AbortName, Events, eventType, poolIdOf, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import type { Execution } from "../src/Execution.ts"
import { Rejection } from "../src/execute/Admission.ts"
import { addr, OWNER, RECIPIENT, World } from "./vectors/World.ts"

// === Steps ===

const often = (weight: number) => fc.oneof({ weight, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })
const rarely = (weight: number) => often(weight).map((b) => !b)

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
  expiresIn: fc.option(fc.integer({ min: -3_000, max: 120_000 }), { nil: null }),
  /** Execute an earlier create's kind again (its nonce), or a create whose deadline has passed. */
  replay: rarely(4),
  late: rarely(8)
})
const Pay = fc.record({ op: fc.constant("pay" as const), grant: fc.nat(), byDelegate: often(3), other: fc.nat(), amount: Amount })
const OwnerOp = fc.oneof(
  { weight: 3, arbitrary: fc.constant("pause" as const) },
  { weight: 3, arbitrary: fc.constant("resume" as const) },
  { weight: 1, arbitrary: fc.constant("revoke" as const) }
)
const Owner = fc.record({ op: OwnerOp, grant: fc.nat(), byOwner: often(3), other: fc.nat() })
const Deposit = fc.record({ op: fc.constant("deposit" as const), byOwner: often(3), other: fc.nat(), amount: fc.bigInt({ min: 1n, max: 60n }) })
const Wait = fc.record({ op: fc.constant("wait" as const), ms: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 5_000, max: 30_000 })) })
/** Jump to one ms before a grant's expiry (still usable) or exactly onto it (expired). */
const ToExpiry = fc.record({ op: fc.constant("toExpiry" as const), grant: fc.nat(), offset: fc.constantFrom(-1, 0) })

const Step = fc.oneof(
  { weight: 3, arbitrary: Create },
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
  readonly delegate: string
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
  /** The nonces of creates that ran: a kind executed again must abort. */
  readonly nonces: Array<string>
  poolBalance: bigint
  paidOut: bigint
}

const START_MS = 1_000_000n
const OPENING_DEPOSIT = 100n
/** How long a prepared create stays executable (the gateway's pending-grant TTL). */
const DEADLINE_MS = 60_000n
const DELEGATES = [addr(0xd1), addr(0xd2)]
const STRANGERS = [addr(0x51), addr(0x52)]

/** One prepared create kind: what it asks for, and the nonce and deadline it carries. */
interface CreateKind {
  readonly kind: Kinds.PreparedKind
  readonly nonce: string
  readonly deadlineMs: bigint
  readonly delegate: string
  readonly sessionCap: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
}

/** What the Move rules say a step must abort with, or undefined when it must succeed. */
const expectedAbort = (model: Model, step: Step, grant: ModelGrant | undefined, create: CreateKind | undefined): AbortName | undefined => {
  switch (step.op) {
    case "create":
      if (create === undefined) return undefined
      if (model.now > create.deadlineMs) return "EDeadlinePassed"
      if (model.nonces.includes(create.nonce)) return "ENonceUsed"
      if (create.maxPerPayment === 0n || create.maxPerPayment > create.sessionCap) return "EInvalidCaps"
      if (create.expiryMs !== 0n && create.expiryMs <= model.now) return "EExpired"
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

/** Every step's outcome over all runs: the property must exercise every rule it checks. */
const seen = new Map<string, number>()
const count = (outcome: string) => seen.set(outcome, (seen.get(outcome) ?? 0) + 1)

const show = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))

const coinBalance = (world: World, id: string) => {
  const object = world.objects.get(id)
  return object?.data._tag === "Coin" ? object.data.balance : 0n
}

const abortCode = (execution: Execution) => {
  if (!("Failure" in execution.status)) return undefined
  const error = execution.status.Failure.error
  return "MoveAbort" in error && error.MoveAbort !== undefined ? Number(error.MoveAbort[1]) : undefined
}

// === Scenario ===

/**
 * Runs `steps` through `execute()` and the model side by side, checking after
 * every step; answers the ledger's final objects (id → digest).
 */
const scenario = async (seed: number, steps: ReadonlyArray<Step>) => {
  const world = new World()
  world.nowMs = START_MS
  const pick = <A>(items: ReadonlyArray<A>, n: number): A => {
    const item = items[n % items.length]
    if (item === undefined) throw new Error("pick from nothing")
    return item
  }
  const opened = await world.runKind(OWNER, await Kinds.fundPool(world.pkg, {
    sender: OWNER,
    coinType: SUI_COIN_TYPE,
    amount: OPENING_DEPOSIT,
    pool: undefined,
    registry: world.shared(world.pkg.registryId),
    coins: []
  }))
  assert.isFalse(opened instanceof Rejection)
  const poolId = poolIdOf(world.pkg, OWNER, SUI_COIN_TYPE)
  const model: Model = { now: START_MS, grants: [], nonces: [], poolBalance: OPENING_DEPOSIT, paidOut: 0n }
  /** Every create kind built so far, to execute one again. */
  const creates: Array<CreateKind> = []
  const nonOwner = (n: number) => pick([...DELEGATES, ...STRANGERS], n)
  let deposits = 0n

  const checkAgainstModel = () => {
    const pool = world.get(poolId)
    if (pool.data._tag !== "Pool") return assert.fail("the pool is not a Pool")
    assert.strictEqual(pool.data.balance, model.poolBalance, "pool balance")
    assert.strictEqual(pool.data.balance + model.paidOut, OPENING_DEPOSIT + deposits, "pool balance + paid out = deposits")
    assert.deepStrictEqual(pool.data.nonces.map((n) => n.nonce).sort(), model.nonces.map((n) => Buffer.from(n).toString("hex")).sort(), "the pool remembers every create that ran")
    for (const grant of model.grants) {
      const object = world.get(grant.id)
      if (object.data._tag !== "Grant") return assert.fail(`${grant.id} is not a Grant`)
      const { spent, sessionCap, maxPerPayment, expiryMs, paused, revoked, delegate } = object.data
      assert.isTrue(spent <= sessionCap, "spent never exceeds the session cap")
      assert.deepStrictEqual(
        { spent, sessionCap, maxPerPayment, expiryMs, paused, revoked, delegate },
        { spent: grant.spent, sessionCap: grant.sessionCap, maxPerPayment: grant.maxPerPayment, expiryMs: grant.expiryMs, paused: grant.paused, revoked: grant.revoked, delegate: grant.delegate }
      )
    }
  }

  for (const step of steps) {
    if (step.op === "wait") {
      model.now += BigInt(step.ms)
      world.nowMs = model.now
      continue
    }
    const grant = step.op === "create" || step.op === "deposit" ? undefined : model.grants[step.grant % Math.max(model.grants.length, 1)]
    if (step.op === "toExpiry") {
      const target = grant === undefined || grant.expiryMs === 0n ? undefined : grant.expiryMs + BigInt(step.offset)
      if (target !== undefined && target > model.now) {
        model.now = target
        world.nowMs = target
      }
      continue
    }
    if (step.op !== "create" && step.op !== "deposit" && grant === undefined) continue

    // Who acts, and the kind they sign.
    let actor = OWNER
    let kind: Kinds.PreparedKind
    let create: CreateKind | undefined
    switch (step.op) {
      case "create": {
        // A replayed kind keeps its nonce and its deadline.
        create = step.replay ? creates[creates.length - 1] : undefined
        if (create === undefined) {
          const fresh = {
            nonce: `g_${seed}_${creates.length}`,
            deadlineMs: step.late ? model.now - 1n : model.now + DEADLINE_MS,
            delegate: pick(DELEGATES, step.delegate),
            sessionCap: step.sessionCap,
            maxPerPayment: step.maxPerPayment,
            expiryMs: step.expiresIn === null ? 0n : model.now + BigInt(step.expiresIn)
          }
          create = {
            ...fresh,
            kind: await Kinds.createPolicyGrant(world.pkg, {
              ...fresh,
              sender: OWNER,
              grantId: fresh.nonce,
              registry: world.shared(world.pkg.registryId),
              pool: world.shared(poolId),
              coinType: SUI_COIN_TYPE,
              window: { kind: WindowKind.none },
              recipients: [],
              policyIds: [BigInt(seed)]
            })
          }
          creates.push(create)
        }
        kind = create.kind
        break
      }
      case "deposit":
        actor = step.byOwner ? OWNER : nonOwner(step.other)
        kind = await Kinds.fundPool(world.pkg, {
          sender: actor,
          coinType: SUI_COIN_TYPE,
          amount: step.amount,
          pool: world.shared(poolId),
          registry: world.shared(world.pkg.registryId),
          coins: []
        })
        break
      case "pay": {
        if (grant === undefined) continue
        actor = step.byDelegate ? grant.delegate : pick([OWNER, ...DELEGATES.filter((d) => d !== grant.delegate), ...STRANGERS], step.other)
        kind = await Kinds.pay(world.pkg, {
          sender: actor,
          registry: world.shared(world.pkg.registryId),
          grant: world.shared(grant.id),
          pool: world.shared(poolId),
          coinType: SUI_COIN_TYPE,
          amount: step.amount,
          recipient: RECIPIENT,
          memo: new TextEncoder().encode(`step-${seed}`)
        })
        break
      }
      default: {
        if (grant === undefined) continue
        actor = step.byOwner ? OWNER : nonOwner(step.other)
        const input = { sender: actor, registry: world.shared(world.pkg.registryId), grant: world.shared(grant.id), kind: 0 }
        kind = await (step.op === "pause" ? Kinds.pauseGrant(world.pkg, input) : step.op === "resume" ? Kinds.resumeGrant(world.pkg, input) : Kinds.revokeGrant(world.pkg, input))
      }
    }

    const abort = expectedAbort(model, step, grant, create)
    const gas = world.gasOf(actor)[0] ?? world.coin(actor, 10_000_000_000n)
    const gasBefore = coinBalance(world, gas.id)
    const before = new Map(world.objects)
    const result = await world.runKind(actor, kind, { gas })
    const label = `${show(step)} at ${model.now} (grant ${show(grant)})`
    if (result instanceof Rejection) return assert.fail(`${label}: refused: ${result.reason}`)
    count(abort ?? `${step.op} ok`)
    const { computationCost, storageCost, storageRebate } = result.gasUsed
    const charged = computationCost + storageCost - storageRebate

    if (abort !== undefined) {
      assert.strictEqual(abortCode(result), AbortCode[abort], `${label} must abort with ${abort}: ${show(result.status)}`)
      assert.deepStrictEqual(result.events, [], label)
      for (const [id, object] of before) {
        if (id !== gas.id) assert.deepStrictEqual(world.objects.get(id)?.data, object.data, `${label}: a failed transaction changes nothing but gas`)
      }
      assert.strictEqual(world.objects.size, before.size, `${label}: a failed transaction creates nothing`)
      assert.strictEqual(coinBalance(world, gas.id), gasBefore - charged, `${label}: a failed transaction is charged gas`)
      checkAgainstModel()
      continue
    }

    assert.deepStrictEqual(result.status, { Success: true }, label)
    const [event, ...more] = result.events
    assert.strictEqual(more.length, 0, "one event a call")
    if (event === undefined) return assert.fail(`${label}: no event`)
    switch (step.op) {
      case "create": {
        if (create === undefined) continue
        assert.strictEqual(event.type, eventType(world.pkg.originalId, "GrantCreated"))
        const created = Events.GrantCreated.parse(fromBase64(event.bcs))
        model.nonces.push(create.nonce)
        model.grants.push({
          id: created.grant_id,
          delegate: create.delegate,
          sessionCap: create.sessionCap,
          maxPerPayment: create.maxPerPayment,
          expiryMs: create.expiryMs,
          spent: 0n,
          paused: false,
          revoked: false
        })
        break
      }
      case "deposit":
        assert.strictEqual(event.type, eventType(world.pkg.originalId, "Deposited"))
        model.poolBalance += step.amount
        deposits += step.amount
        assert.strictEqual(coinBalance(world, gas.id), gasBefore - charged - step.amount, "the deposit is split from gas")
        break
      case "pay": {
        if (grant === undefined) continue
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
        assert.strictEqual(Events.GrantPauseSet.parse(fromBase64(event.bcs)).paused, step.op === "pause")
        grant.paused = step.op === "pause"
        break
      case "revoke":
        if (grant === undefined) continue
        grant.revoked = true
        break
    }
    checkAgainstModel()
  }
  return [...world.objects.values()].map((o) => `${o.id}@${o.version}:${o.digest}`).sort()
}

// === Properties ===

describe("execute() against a model of the Move rules", () => {
  it("pays only within a grant's rules, lets only the owner steer it, runs each create once, and every abort changes nothing", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), Steps, async (seed, steps) => {
      await scenario(seed, steps)
    }), { seed: 20261123, numRuns: 60 })
    // The runs must have reached every rule the model checks, and successes of every kind.
    const rules: ReadonlyArray<string> = [
      "ENotDelegate", "EZeroAmount", "ERevoked", "EPaused", "EExpired", "EExceedsMaxPerPayment", "EExceedsSessionCap",
      "EInsufficientBalance", "ENotOwner", "EAlreadyPaused", "ENotPaused", "EAlreadyRevoked", "EInvalidCaps", "ENonceUsed", "EDeadlinePassed",
      "create ok", "pay ok", "pause ok", "resume ok", "revoke ok", "deposit ok"
    ]
    assert.deepStrictEqual(rules.filter((r) => (seen.get(r) ?? 0) === 0), [], show(Object.fromEntries(seen)))
  })

  it("replays a seed in a fresh world to byte-identical objects", async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), Steps, async (seed, steps) => {
      assert.deepStrictEqual(await scenario(seed, steps), await scenario(seed, steps))
    }), { seed: 7, numRuns: 5 })
  })
})
