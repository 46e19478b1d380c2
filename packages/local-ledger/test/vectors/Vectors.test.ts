import { readFileSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import {
  AbortCode,
  CLOCK_OBJECT_ID,
  Events,
  eventType,
  MODULE,
  nonceBytes,
  poolIdOf,
  SUI_COIN_TYPE,
  target,
  typeNameOf
} from "@gateway/domain/chain/SpendAccountModule"
import { verifyGrantCreated } from "@gateway/domain/verify/GrantCreatedVerifier"
import { fundPool } from "@gateway/chain/transactions/Kinds"
import type { Execution } from "../../src/Execution.ts"
import { GAS_UNITS, Rejection } from "../../src/execute/Admission.ts"
import { derivedObjectAlreadyExists } from "../../src/execute/FrameworkAborts.ts"
import { FunctionIndex } from "../../src/execute/SpendAccountEntries.ts"
import { storageCost } from "../../src/LedgerObject.ts"
import { effectsBcs } from "../../src/LedgerEffects.ts"
import {
  expectedFailure,
  generatedBlockOf,
  MOVE_ADDRESSES,
  MOVE_TESTS_FILE,
  renderMoveVectorTests,
  tallyOf
} from "./MoveVectorTests.ts"
import { type Ran, VectorRunner, windowTerms } from "./VectorRunner.ts"
import { BIG_COIN, GRANT, ModuleVectors, NO_WINDOW_ARGS, type Outcome, SESSION, type Step, U64_MAX, type Vector } from "./Vectors.ts"
import { DELEGATE, GAS_PRICE, OWNER, RECIPIENT, World } from "./World.ts"

const FRAMEWORK = normalizeSuiAddress("0x2")
const FRAMEWORK_ABORTS_BY_NAME = new Map([["derived_object::claim", derivedObjectAlreadyExists()]])

const failureOf = (execution: Execution) => {
  if (!("Failure" in execution.status)) return assert.fail(`expected a failure, got ${JSON.stringify(execution.status)}`)
  return execution.status.Failure
}

/** A failed transaction changed nothing but versions and gas: every mutable input is rewritten at the lamport version, no events. */
const assertOnlyGasAndVersions = (execution: Execution) => {
  assert.deepStrictEqual(execution.events, [])
  for (const change of execution.changes) {
    if (change.id === execution.gasObjectId || change.after === undefined) continue
    assert.isDefined(change.before, `${change.id} was created by a failed transaction`)
    assert.deepStrictEqual(change.after.data, change.before?.data, `${change.id} changed in a failed transaction`)
    assert.strictEqual(change.after.version, execution.lamportVersion)
  }
}

const assertOutcome = (runner: VectorRunner, vector: Vector, ran: Ran, outcome: Outcome) => {
  const { execution } = ran
  if ("ok" in outcome) {
    assert.deepStrictEqual(execution.status, { Success: true }, vector.name)
    const expected = outcome.ok === null ? [] : typeof outcome.ok === "string" ? [outcome.ok] : outcome.ok
    // One event a call, but for claim_and_close, which claims (when there is anything to pay) and closes.
    assert.deepStrictEqual(execution.events.map((e) => e.type), expected.map((name) => eventType(runner.world.pkg.originalId, name)))
    return
  }
  const failure = failureOf(execution)
  assertOnlyGasAndVersions(execution)
  assert.strictEqual(failure.command, ran.moveCallIndex, "the failing command is the Move call")
  const error = failure.error
  if ("abort" in outcome) {
    if (!("MoveAbort" in error) || error.MoveAbort === undefined) return assert.fail(`expected MoveAbort, got ${JSON.stringify(error)}`)
    const [where, code] = error.MoveAbort
    const fn = outcome.in ?? ran.fn
    assert.strictEqual(Number(code), AbortCode[outcome.abort], `${vector.name}: abort code`)
    assert.deepStrictEqual(
      { address: where.module.address, module: where.module.name, function: where.function, functionName: where.functionName },
      { address: runner.world.pkg.publishedAt, module: MODULE, function: FunctionIndex[fn as keyof typeof FunctionIndex], functionName: fn }
    )
    return
  }
  if ("frameworkAbort" in outcome) {
    if (!("MoveAbort" in error) || error.MoveAbort === undefined) return assert.fail(`expected MoveAbort, got ${JSON.stringify(error)}`)
    const [where] = error.MoveAbort
    assert.strictEqual(`${where.module.name}::${where.functionName}`, outcome.frameworkAbort)
    assert.strictEqual(where.module.address, FRAMEWORK)
    // The abort a full node reports, its clever code packed as the framework's compiler packs it.
    const expected = FRAMEWORK_ABORTS_BY_NAME.get(outcome.frameworkAbort)
    if (expected === undefined) return assert.fail(`no framework abort known for ${outcome.frameworkAbort}`)
    assert.deepStrictEqual(error, expected.error)
    return
  }
  if (!("MovePrimitiveRuntimeError" in error) || error.MovePrimitiveRuntimeError === undefined || error.MovePrimitiveRuntimeError === null) {
    return assert.fail(`expected MovePrimitiveRuntimeError, got ${JSON.stringify(error)}`)
  }
  const where = error.MovePrimitiveRuntimeError
  assert.strictEqual(`${where.module.name}::${where.functionName}`, outcome.arithmeticError)
  assert.strictEqual(where.module.address, FRAMEWORK)
}

/** A created grant's event names its coin type as Move's `type_name` does, carries the nonce, and verifies. */
const assertGrantCreatedVerifies = (runner: VectorRunner, ran: Ran, step: Extract<Step, { op: "createGrant" }>) =>
  Effect.gen(function*() {
    const [event] = ran.execution.events
    if (event === undefined) return assert.fail("no GrantCreated")
    const created = Events.GrantCreated.parse(fromBase64(event.bcs))
    assert.strictEqual(created.coin_type, typeNameOf(runner.coinType))
    assert.deepStrictEqual(Uint8Array.from(created.nonce), nonceBytes(GRANT.grantId))
    const tx: ChainTransaction = {
      digest: "vector",
      sender: OWNER,
      status: "success",
      error: null,
      checkpoint: "1",
      timestampMs: "0",
      calls: [{ package: runner.world.pkg.publishedAt, module: MODULE, function: "create_policy_grant", typeArguments: [runner.coinType], arguments: [] }],
      events: ran.execution.events
    }
    const verified = yield* verifyGrantCreated({
      pkg: runner.world.pkg,
      grantId: GRANT.grantId,
      owner: OWNER,
      delegate: DELEGATE,
      poolId: runner.poolId,
      coinType: runner.coinType,
      sessionCap: GRANT.sessionCap,
      maxPerPayment: GRANT.maxPerPayment,
      expiryMs: step.expiryMs ?? GRANT.expiryMs,
      window: windowTerms(step.window ?? NO_WINDOW_ARGS),
      recipients: step.recipients ?? [],
      policyIds: [1n]
    }, tx)
    assert.strictEqual(verified.grantObjectId, created.grant_id)
  })

/** The pool's value and the grant's spent that a success row's Move test expects (`tallyOf`) are what the executor left. */
const assertTally = (runner: VectorRunner, vector: Vector) => {
  const tally = tallyOf([...vector.given, vector.when])
  const pool = runner.world.objects.get(runner.poolId)?.data
  assert.strictEqual(pool?._tag === "Pool" ? pool.balance : undefined, tally.poolValue, `${vector.name}: the pool's value`)
  if (runner.grantId === undefined) return assert.isUndefined(tally.spent, `${vector.name}: no grant`)
  const grant = runner.world.get(runner.grantId).data
  assert.strictEqual(grant._tag === "Grant" ? grant.spent : undefined, tally.spent, `${vector.name}: the grant's spent`)
  assert.deepStrictEqual(grant._tag === "Grant" ? grant.window : undefined, tally.window, `${vector.name}: the grant's window`)
  if (runner.sessionId === undefined) return assert.strictEqual(tally.sessions, 0, `${vector.name}: no session`)
  // A closed session is deleted: gone from the ledger's objects.
  const session = runner.world.objects.get(runner.sessionId)?.data
  assert.deepStrictEqual(
    session?._tag === "Session" ? { deposit: session.deposit, claimed: session.claimed, closeAtMs: session.closeAtMs } : undefined,
    tally.session,
    `${vector.name}: the session`
  )
  if (session?._tag === "Session") assert.strictEqual(session.balance, session.deposit - session.claimed, `${vector.name}: the session holds deposit - claimed`)
}

describe("module vectors against execute()", () => {
  for (const vector of ModuleVectors) {
    it.effect(vector.name, () =>
      Effect.gen(function*() {
        const runner = new VectorRunner()
        for (const step of vector.given) {
          const ran = yield* Effect.promise(() => runner.step(step))
          if (ran !== undefined) assert.deepStrictEqual(ran.execution.status, { Success: true }, `${vector.name}: given ${step.op}`)
        }
        const ran = yield* Effect.promise(() => runner.step(vector.when))
        if (ran === undefined) return assert.fail("a vector's call must be a transaction")
        assertOutcome(runner, vector, ran, vector.then)
        if ("ok" in vector.then) assertTally(runner, vector)
        if ("ok" in vector.then && vector.then.ok === "GrantCreated" && vector.when.op === "createGrant" && vector.when.grantId === undefined) {
          yield* assertGrantCreatedVerifies(runner, ran, vector.when)
        }
      }))
  }
})

describe("the Move tests of the vectors are generated from them", () => {
  const moveTests = readFileSync(new URL(`../../../../${MOVE_TESTS_FILE}`, import.meta.url), "utf8")

  it("the generated block of spend_account_tests.move is what MoveVectorTests renders from the table now", () => {
    assert.strictEqual(
      generatedBlockOf(moveTests),
      renderMoveVectorTests(ModuleVectors),
      `${MOVE_TESTS_FILE} is out of step with Vectors.ts: run \`npm run move-vectors\``
    )
  })

  for (const vector of ModuleVectors) {
    it(`${vector.name} has one #[test] of the same name, generated, expecting the same outcome`, () => {
      // Another `fun` of the name (a hand-written test left behind) would not compile.
      assert.lengthOf([...moveTests.matchAll(new RegExp(`^fun ${vector.name}\\(`, "gm"))], 1, `one fun ${vector.name} in ${MOVE_TESTS_FILE}`)
      const found = new RegExp(`#\\[test(?:, expected_failure\\((.*)\\))?\\]\\nfun ${vector.name}\\(\\)`).exec(generatedBlockOf(moveTests))
      if (found === null) return assert.fail(`no generated #[test] fun ${vector.name}() in ${MOVE_TESTS_FILE}: run \`npm run move-vectors\``)
      assert.strictEqual(found[1], expectedFailure(vector.then))
    })
  }

  it("the generated tests name the World's addresses", () => {
    for (const [address, name] of MOVE_ADDRESSES) {
      const found = new RegExp(`^const ${name}: address = @(0x[0-9a-fA-F]+);$`, "m").exec(moveTests)
      assert.strictEqual(normalizeSuiAddress(found?.[1] ?? ""), address, `const ${name} in ${MOVE_TESTS_FILE}`)
    }
  })
})

describe("the executor cites the Move checks it mirrors", () => {
  const move = readFileSync(new URL("../../../chain/move/sources/spend_account.move", import.meta.url), "utf8").split("\n")
  const executor = readFileSync(new URL("../../src/execute/SpendAccountEntries.ts", import.meta.url), "utf8")
  const citations = [...executor.matchAll(/abort\("(\w+)"[^)]*\) \/\/ spend_account\.move:(\d+)/g)]
  it("every abort names the line of spend_account.move that raises the same error", () => {
    assert.isAbove(citations.length, 30)
    for (const [, name, line] of citations) assert.include(move[Number(line) - 1] ?? "", `, ${name})`, `spend_account.move:${line}`)
  })

  it("FunctionIndex is each function's place in spend_account.move's declaration order, test-only ones left out", () => {
    const published = move.slice(0, move.indexOf("// === Test-only ==="))
    const declared = published.flatMap((line) => /^(?:public )?fun (\w+)/.exec(line)?.[1] ?? [])
    for (const [fn, index] of Object.entries(FunctionIndex)) assert.strictEqual(declared.indexOf(fn), index, fn)
  })
})

// === Ledger vectors: what Sui does around the module, which Move unit tests cannot show ===

describe("ledger vectors against execute()", () => {
  it.effect("versions_advance_on_failure", () =>
    Effect.gen(function*() {
      const runner = new VectorRunner()
      yield* Effect.promise(() => runner.step({ op: "createPool", amount: 1_000n }))
      yield* Effect.promise(() => runner.step({ op: "createGrant" }))
      const clock = runner.world.get(CLOCK_OBJECT_ID)
      const ran = yield* Effect.promise(() => runner.step({ op: "pay", amount: 0n }))
      if (ran === undefined) return assert.fail("no transaction")
      const { execution } = ran
      const error = failureOf(execution).error
      assert.strictEqual("MoveAbort" in error ? Number(error.MoveAbort?.[1]) : undefined, AbortCode.EZeroAmount)
      const changed = new Map(execution.changes.map((c) => [c.id, c]))
      // The gas coin, the grant and the pool (both taken &mut) advance to the lamport version, their contents untouched.
      for (const id of [execution.gasObjectId, runner.poolId, runner.grantId ?? ""]) {
        const change = changed.get(id)
        assert.strictEqual(change?.after?.version, execution.lamportVersion, `${id} advances`)
        assert.isTrue((change?.before?.version ?? execution.lamportVersion) < execution.lamportVersion)
      }
      assertOnlyGasAndVersions(execution)
      // The Registry and the Clock, taken by immutable reference, are read only: unchanged, ReadOnlyRoot.
      const registry = runner.world.get(runner.world.pkg.registryId)
      assert.sameDeepMembers([...execution.unchangedShared], [registry, clock])
      assert.isFalse(changed.has(clock.id))
      assert.isFalse(changed.has(registry.id))
    }))

  it.effect("clock_taken_mutably_is_refused", () =>
    Effect.gen(function*() {
      const runner = new VectorRunner()
      yield* Effect.promise(() => runner.step({ op: "createPool", amount: 1_000n }))
      const { world } = runner
      const before = new Map(world.objects)
      const result = yield* Effect.promise(() =>
        world.run(OWNER, (tx) => {
          tx.moveCall({
            target: target(world.pkg, "create_policy_grant"),
            typeArguments: [SUI_COIN_TYPE],
            arguments: [
              tx.sharedObjectRef({ objectId: world.pkg.registryId, initialSharedVersion: "1", mutable: false }),
              tx.sharedObjectRef({ objectId: runner.poolId, initialSharedVersion: world.shared(runner.poolId).initialSharedVersion.toString(), mutable: true }),
              tx.pure.vector("u8", [...nonceBytes("g_clock")]),
              tx.pure.u64(GRANT.deadlineMs),
              tx.pure.address(DELEGATE),
              tx.pure.u64(10n),
              tx.pure.u64(10n),
              tx.pure.u64(0n),
              tx.pure.u8(0),
              tx.pure.u64(0n),
              tx.pure.u64(0n),
              tx.pure.vector("address", []),
              tx.pure.vector("u64", []),
              tx.sharedObjectRef({ objectId: CLOCK_OBJECT_ID, initialSharedVersion: "1", mutable: true })
            ]
          })
        })
      )
      if (!(result instanceof Rejection)) return assert.fail("a mutable Clock must be refused before execution")
      assert.match(result.reason, /ImmutableParameterExpectedError/)
      assert.deepStrictEqual(world.objects, before, "nothing changed")
    }))

  it.effect("budget_below_computation_and_storage_fails_with_insufficient_gas", () =>
    Effect.gen(function*() {
      const world = new World()
      const gas = world.coin(OWNER, 1_000_000_000n)
      // Enough for computation and for rewriting the gas coin and the Registry (what a failure writes), not for the new pool.
      const registry = world.get(world.pkg.registryId)
      const budget = GAS_UNITS * GAS_PRICE + storageCost(gas, world.pkg.originalId) + storageCost(registry, world.pkg.originalId)
      const kind = yield* Effect.promise(() =>
        fundPool(world.pkg, { sender: OWNER, coinType: SUI_COIN_TYPE, amount: 100n, pool: undefined, registry: world.shared(world.pkg.registryId), coins: [] })
      )
      const result = yield* Effect.promise(() => world.runKind(OWNER, kind, { budget, gas }))
      if (result instanceof Rejection) return assert.fail(result.reason)
      assert.deepStrictEqual(failureOf(result), { error: { InsufficientGas: true }, command: null })
      const { computationCost, storageCost: storage, storageRebate } = result.gasUsed
      assert.isTrue(computationCost + storage <= budget, "never more than the budget")
      const after = world.get(gas.id)
      assert.strictEqual(after.version, result.lamportVersion)
      assert.strictEqual(after.data._tag === "Coin" ? after.data.balance : -1n, 1_000_000_000n - (computationCost + storage - storageRebate))
      assert.isFalse(world.objects.has(poolIdOf(world.pkg, OWNER, SUI_COIN_TYPE)), "no pool")
      assert.deepStrictEqual(result.events, [])
    }))

  it.effect("gas_charges_computation_and_storage_and_rebates_99_percent", () =>
    Effect.gen(function*() {
      const runner = new VectorRunner()
      const gas = runner.world.coin(OWNER, 10_000_000_000n)
      const ran = yield* Effect.promise(() => runner.step({ op: "createPool", amount: 1_000n }))
      if (ran === undefined) return assert.fail("no transaction")
      const { execution } = ran
      const written = execution.changes.flatMap((c) => (c.after === undefined ? [] : [c.after]))
      const refundable = execution.changes.reduce((sum, c) => sum + (c.before?.storageRebate ?? 0n), 0n)
      assert.deepStrictEqual(execution.gasUsed, {
        computationCost: GAS_UNITS * GAS_PRICE,
        storageCost: written.reduce((sum, o) => sum + storageCost(o, runner.world.pkg.originalId), 0n),
        storageRebate: (refundable * 99n) / 100n,
        nonRefundableStorageFee: refundable - (refundable * 99n) / 100n
      })
      for (const object of written) assert.strictEqual(object.storageRebate, storageCost(object, runner.world.pkg.originalId), "each object records its storage cost")
      const after = runner.world.get(gas.id)
      const { computationCost, storageCost: storage, storageRebate } = execution.gasUsed
      assert.strictEqual(after.data._tag === "Coin" ? after.data.balance : -1n, 10_000_000_000n - 1_000n - (computationCost + storage - storageRebate))
    }))

  it.effect("split_coins_beyond_the_balance_fails_insufficient_coin_balance", () =>
    Effect.gen(function*() {
      const world = new World()
      const coin = world.coin(OWNER, 100n, BIG_COIN)
      const result = yield* Effect.promise(() =>
        world.run(OWNER, (tx) => {
          const [a, b] = tx.splitCoins(tx.objectRef({ objectId: coin.id, version: coin.version.toString(), digest: coin.digest }), [60n, 41n])
          if (a === undefined || b === undefined) throw new Error("splitCoins returned nothing")
          tx.transferObjects([a, b], DELEGATE)
        })
      )
      if (result instanceof Rejection) return assert.fail(result.reason)
      assert.deepStrictEqual(failureOf(result), { error: { InsufficientCoinBalance: true }, command: 0 })
      assert.strictEqual(world.get(coin.id).version, result.lamportVersion, "the coin, an owned input, advances")
    }))

  it.effect("merge_coins_past_u64_fails_coin_balance_overflow", () =>
    Effect.gen(function*() {
      const world = new World()
      const [a, b] = [world.coin(OWNER, U64_MAX, BIG_COIN), world.coin(OWNER, 1n, BIG_COIN)]
      const result = yield* Effect.promise(() =>
        world.run(OWNER, (tx) => {
          tx.mergeCoins(tx.objectRef({ objectId: a.id, version: a.version.toString(), digest: a.digest }), [
            tx.objectRef({ objectId: b.id, version: b.version.toString(), digest: b.digest })
          ])
        })
      )
      if (result instanceof Rejection) return assert.fail(result.reason)
      assert.deepStrictEqual(failureOf(result), { error: { CoinBalanceOverflow: true }, command: 0 })
      assert.isTrue(world.objects.has(b.id), "the source coin is not consumed")
    }))

  it.effect("a_closed_session_is_deleted_and_effects_say_so", () =>
    Effect.gen(function*() {
      const runner = new VectorRunner()
      for (const step of [{ op: "createPool", amount: 1_000n }, { op: "createGrant" }, { op: "openSession", deposit: SESSION.deposit }] as const) {
        yield* Effect.promise(() => runner.step(step))
      }
      const sessionId = runner.sessionId ?? assert.fail("no session")
      const before = runner.world.get(sessionId)
      const ran = yield* Effect.promise(() => runner.step({ op: "closeSession" }))
      if (ran === undefined) return assert.fail("no transaction")
      assert.deepStrictEqual(ran.execution.status, { Success: true })
      const change = ran.execution.changes.find((c) => c.id === sessionId)
      assert.deepStrictEqual(change?.before, before, "the session was an input at its version")
      assert.isUndefined(change?.after, "and is no more")
      assert.isFalse(runner.world.objects.has(sessionId), "gone from the ledger")
      const effects = bcs.TransactionEffects.parse(effectsBcs({ digest: ran.execution.changes[0]?.after?.previousTransaction ?? "", execution: ran.execution, eventsDigest: undefined }))
      const entry = effects.V2?.changedObjects.find(([id]) => normalizeSuiAddress(id) === sessionId)?.[1]
      assert.deepStrictEqual(entry?.idOperation.$kind, "Deleted")
      assert.deepStrictEqual(entry?.outputState.$kind, "NotExist")
      // Its storage rebate goes back to the closer.
      assert.isTrue(ran.execution.gasUsed.storageRebate >= (before.storageRebate * 99n) / 100n)
    }))

  it.effect("a_session_taken_by_value_from_an_immutable_input_fails_invalid_object_by_value", () =>
    Effect.gen(function*() {
      const runner = new VectorRunner()
      for (const step of [{ op: "createPool", amount: 1_000n }, { op: "createGrant" }, { op: "openSession", deposit: SESSION.deposit }] as const) {
        yield* Effect.promise(() => runner.step(step))
      }
      const { world } = runner
      const ref = (id: string, mutable: boolean) => {
        const shared = world.shared(id)
        return { objectId: shared.objectId, initialSharedVersion: shared.initialSharedVersion.toString(), mutable }
      }
      const result = yield* Effect.promise(() =>
        world.run(RECIPIENT, (tx) => {
          tx.moveCall({
            target: target(world.pkg, "close_session"),
            typeArguments: [SUI_COIN_TYPE],
            arguments: [
              tx.sharedObjectRef(ref(world.pkg.registryId, false)),
              tx.sharedObjectRef(ref(runner.sessionId ?? "", false)),
              tx.sharedObjectRef(ref(runner.grantId ?? "", true)),
              tx.sharedObjectRef(ref(runner.poolId, true)),
              tx.object.clock()
            ]
          })
        })
      )
      if (result instanceof Rejection) return assert.fail(result.reason)
      assert.deepStrictEqual(failureOf(result), { error: { CommandArgumentError: { argIdx: 1, kind: { InvalidObjectByValue: true } } }, command: 0 })
      assert.isTrue(world.objects.has(runner.sessionId ?? ""), "the session stays")
    }))
})
