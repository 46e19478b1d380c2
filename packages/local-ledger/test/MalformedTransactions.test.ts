import { Transaction } from "@mysten/sui/transactions"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { AbortCode, poolIdOf, type SpendAccountPackage, SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import type { Execution, ExecutionFailure } from "../src/Execution.ts"
import { Rejection } from "../src/execute/Admission.ts"
import type { LedgerObject } from "../src/LedgerObject.ts"
import { VectorRunner } from "./vectors/VectorRunner.ts"
import { OWNER, PACKAGE, RECIPIENT, STRANGER, type World } from "./vectors/World.ts"

// === Helpers ===

/** A world with the owner's SUI pool of 500. */
const withPool = Effect.promise(async () => {
  const runner = new VectorRunner()
  await runner.step({ op: "createPool", amount: 500n })
  return { world: runner.world, pool: runner.poolId }
})

const ref = (object: LedgerObject) => ({ objectId: object.id, version: object.version.toString(), digest: object.digest })

const sharedPool = (world: World, tx: Transaction, pool: string, mutable: boolean) =>
  tx.sharedObjectRef({ objectId: pool, initialSharedVersion: world.shared(pool).initialSharedVersion.toString(), mutable })

/** The Registry, which every call names first (immutably, but for create_pool and set_version). */
const registry = (world: World, tx: Transaction) =>
  tx.sharedObjectRef({ objectId: world.pkg.registryId, initialSharedVersion: world.shared(world.pkg.registryId).initialSharedVersion.toString(), mutable: false })

/** Runs a transaction Sui records as failed with `error`, and checks it changed nothing but gas and versions. */
const expectFailed = (world: World, sender: string, compose: (tx: Transaction) => void, error: ExecutionFailure, command: number | null = 0) =>
  Effect.gen(function*() {
    const before = new Map(world.objects)
    const result = yield* Effect.promise(() => world.run(sender, compose))
    if (result instanceof Rejection) return assert.fail(`refused: ${result.reason}`)
    assert.deepStrictEqual(result.status, { Failure: { error, command } })
    assert.deepStrictEqual(result.events, [])
    for (const change of result.changes) {
      if (change.id === result.gasObjectId) continue
      assert.deepStrictEqual(change.after?.data, before.get(change.id)?.data, `${change.id} unchanged but for its version`)
    }
    return result
  })

const expectRefused = (world: World, sender: string, compose: (tx: Transaction) => void, reason: RegExp) =>
  Effect.gen(function*() {
    const before = new Map(world.objects)
    const result = yield* Effect.promise(() => world.run(sender, compose))
    if (!(result instanceof Rejection)) return assert.fail(`executed: ${JSON.stringify(result.status)}`)
    assert.match(result.reason, reason)
    assert.deepStrictEqual(world.objects, before, "nothing changed")
  })

const succeeded = (result: Execution | Rejection) => !(result instanceof Rejection) && "Success" in result.status

// === Tests ===

describe("execute() refuses, or fails, the transactions Sui refuses or fails", () => {
  it.effect("refuses a coin named twice for gas, or as gas and as an input", () =>
    Effect.gen(function*() {
      const { world } = yield* withPool
      const [gas] = world.gasOf(OWNER)
      if (gas === undefined) return assert.fail("no gas coin")
      const before = new Map(world.objects)
      // The same coin twice in the payment: its balance must not count twice.
      const twice = yield* Effect.promise(() =>
        world.run(OWNER, (tx) => {
          const [coin] = tx.splitCoins(tx.gas, [9_000_000_000n])
          if (coin === undefined) throw new Error("splitCoins returned nothing")
          tx.transferObjects([coin], RECIPIENT)
        }, { payment: [gas, gas] })
      )
      assert.isTrue(twice instanceof Rejection && /named more than once/.test(twice.reason))
      // The gas coin also passed as an owned input.
      yield* expectRefused(world, OWNER, (tx) => tx.transferObjects([tx.objectRef(ref(gas))], RECIPIENT), /named more than once/)
      assert.deepStrictEqual(world.objects, before)
    }))

  it.effect("decodes every argument before the module's checks: malformed pure bytes fail as InvalidBCSBytes, even from a stranger", () =>
    Effect.gen(function*() {
      const { world, pool } = yield* withPool
      const withdraw = target(world.pkg, "withdraw")
      // A stranger would abort ENotOwner; the two-byte u64 is found first.
      yield* expectFailed(world, STRANGER, (tx) => {
        tx.moveCall({ target: withdraw, typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.pure(new Uint8Array([1, 2]))] })
      }, { CommandArgumentError: { argIdx: 2, kind: { InvalidBCSBytes: true } } })
      yield* expectFailed(world, OWNER, (tx) => {
        tx.moveCall({ target: withdraw, typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.pure(new Uint8Array(9).fill(1))] })
      }, { CommandArgumentError: { argIdx: 2, kind: { InvalidBCSBytes: true } } })
      // An address of three bytes, in a framework command: the address comes after the objects.
      yield* expectFailed(world, OWNER, (tx) => {
        const [coin] = tx.splitCoins(tx.gas, [1n])
        if (coin === undefined) throw new Error("splitCoins returned nothing")
        tx.transferObjects([coin], tx.pure(new Uint8Array([1, 2, 3])))
      }, { CommandArgumentError: { argIdx: 1, kind: { InvalidBCSBytes: true } } }, 1)
      // A split amount that is no u64.
      yield* expectFailed(world, OWNER, (tx) => {
        const [coin] = tx.splitCoins(tx.gas, [tx.pure(new Uint8Array([7]))])
        if (coin === undefined) throw new Error("splitCoins returned nothing")
        tx.transferObjects([coin], OWNER)
      }, { CommandArgumentError: { argIdx: 1, kind: { InvalidBCSBytes: true } } })
    }))

  it.effect("types every object argument against its parameter: Pool<u64> is not the SUI pool, a coin is not a pool", () =>
    Effect.gen(function*() {
      const { world, pool } = yield* withPool
      yield* expectFailed(world, STRANGER, (tx) => {
        tx.moveCall({ target: target(world.pkg, "withdraw"), typeArguments: ["u64"], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.pure.u64(1n)] })
      }, { CommandArgumentError: { argIdx: 1, kind: { TypeMismatch: true } } })
      const coin = world.coin(OWNER, 5n)
      yield* expectFailed(world, OWNER, (tx) => {
        tx.moveCall({ target: target(world.pkg, "withdraw"), typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), tx.objectRef(ref(coin)), tx.pure.u64(1n)] })
      }, { CommandArgumentError: { argIdx: 1, kind: { TypeMismatch: true } } })
    }))

  it.effect("fails a shared object declared immutable and passed to a &mut parameter; the same call declared mutable succeeds", () =>
    Effect.gen(function*() {
      const { world, pool } = yield* withPool
      const withdraw = (mutable: boolean) => (tx: Transaction) => {
        const [coin] = tx.moveCall({
          target: target(world.pkg, "withdraw"),
          typeArguments: [SUI_COIN_TYPE],
          arguments: [registry(world, tx), sharedPool(world, tx, pool, mutable), tx.pure.u64(1n)]
        })
        if (coin === undefined) throw new Error("withdraw returned nothing")
        tx.transferObjects([coin], OWNER)
      }
      const failed = yield* expectFailed(world, OWNER, withdraw(false), { CommandArgumentError: { argIdx: 1, kind: { InvalidObjectByMutRef: true } } })
      assert.sameMembers(failed.unchangedShared.map((o) => o.id), [pool, world.pkg.registryId], "a pool read immutably is ReadOnlyRoot")
      assert.isTrue(succeeded(yield* Effect.promise(() => world.run(OWNER, withdraw(true)))))
    }))

  it.effect("fails the gas coin taken by value, a split coin left unused, and a withdrawn coin left unused", () =>
    Effect.gen(function*() {
      const { world, pool } = yield* withPool
      yield* expectFailed(world, OWNER, (tx) => {
        tx.moveCall({ target: target(world.pkg, "deposit"), typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.gas] })
      }, { CommandArgumentError: { argIdx: 2, kind: { InvalidGasCoinUsage: true } } })
      yield* expectFailed(world, OWNER, (tx) => {
        tx.splitCoins(tx.gas, [1n])
      }, { UnusedValueWithoutDrop: { resultIdx: 0, secondaryIdx: 0 } }, null)
      // `withdraw` returns a `Coin<T>`, which has no `drop`: a transaction that leaves it unused fails.
      yield* expectFailed(world, OWNER, (tx) => {
        tx.moveCall({ target: target(world.pkg, "withdraw"), typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.pure.u64(1n)] })
      }, { UnusedValueWithoutDrop: { resultIdx: 0, secondaryIdx: 0 } }, null)
    }))

  it.effect("fails a function the module does not have, and refuses a package that is not on the ledger", () =>
    Effect.gen(function*() {
      const { world, pool } = yield* withPool
      yield* expectFailed(world, OWNER, (tx) => {
        tx.moveCall({ target: `${world.pkg.publishedAt}::spend_account::steal`, typeArguments: [SUI_COIN_TYPE], arguments: [sharedPool(world, tx, pool, true)] })
      }, { FunctionNotFound: true })
      yield* expectRefused(world, OWNER, (tx) => {
        tx.moveCall({ target: `0x${"ab".repeat(32)}::spend_account::withdraw`, typeArguments: [SUI_COIN_TYPE], arguments: [registry(world, tx), sharedPool(world, tx, pool, true), tx.pure.u64(1n)] })
      }, /is not on this ledger/)
    }))
})

describe("an upgraded package", () => {
  it.effect("takes calls at the published-at id, keeps types and events under the original id, and aborts at the published-at id", () =>
    Effect.gen(function*() {
      const upgraded: SpendAccountPackage = { ...PACKAGE, publishedAt: `0x${"cd".repeat(32)}` }
      const runner = new VectorRunner(upgraded)
      const created = yield* Effect.promise(() => runner.step({ op: "createPool", amount: 10n }))
      assert.deepStrictEqual(created?.execution.status, { Success: true })
      assert.strictEqual(created?.execution.events[0]?.type, `${upgraded.originalId}::spend_account::PoolCreated`)
      const pool = runner.world.get(poolIdOf(upgraded, OWNER, SUI_COIN_TYPE))
      assert.isTrue(pool.data._tag === "Pool")
      const failed = yield* Effect.promise(() => runner.step({ op: "withdraw", amount: 11n }))
      const status = failed?.execution.status
      const abort = status !== undefined && "Failure" in status && "MoveAbort" in status.Failure.error ? status.Failure.error.MoveAbort : undefined
      assert.strictEqual(abort?.[0].module.address, upgraded.publishedAt)
      assert.strictEqual(Number(abort?.[1]), AbortCode.EInsufficientBalance)
    }))
})
