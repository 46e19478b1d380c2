import type { Keypair } from "@mysten/sui/cryptography"
import { bcs } from "@mysten/sui/bcs"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import type { PoolRef } from "../src/Chain.ts"
import { GAS_UNITS } from "../src/local/Executor.ts"
import type { LedgerObject } from "../src/local/LedgerObject.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"
import { moveCallsOf } from "../src/sui/MoveCalls.ts"
import { fund, ownerWithPool, PACKAGE, runOnLedger, seededEd25519 } from "./LedgerHarness.ts"

// === Helpers ===

const GAS_PRICE = 1000n

/** The signer's SUI coins, as a transaction names them. */
const coinRefs = (signer: Keypair) =>
  Effect.map(LocalLedger.use((ledger) => ledger.ownedObjects(signer.toSuiAddress())), (objects) =>
    objects.flatMap((o) => (o.data._tag === "Coin" ? [{ objectId: o.id, version: o.version.toString(), digest: o.digest }] : [])))

/** Builds a complete transaction offline (gas set by `compose`), signed by `signer`. */
const signed = (signer: Keypair, compose: (tx: Transaction) => void) =>
  Effect.gen(function*() {
    const tx = new Transaction()
    tx.setSender(signer.toSuiAddress())
    tx.setGasPrice(GAS_PRICE)
    tx.setGasBudget(10_000_000n)
    compose(tx)
    const bytes = yield* Effect.promise(() => tx.build())
    const { signature } = yield* Effect.promise(() => signer.signTransaction(bytes))
    return { bytes, txBytes: toBase64(bytes), signature }
  })

/** Every object the signer owns, and the pool. */
const state = (signer: Keypair, pool: PoolRef) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const owned: ReadonlyArray<LedgerObject> = yield* ledger.ownedObjects(signer.toSuiAddress())
    return { owned: [...owned].sort((a, b) => a.id.localeCompare(b.id)), pool: yield* ledger.getObject(pool.poolId) }
  })

const balanceOf = (objects: ReadonlyArray<LedgerObject>) => objects.reduce((sum, o) => sum + (o.data._tag === "Coin" ? o.data.balance : 0n), 0n)

const sharedPool = (tx: Transaction, pool: PoolRef, mutable: boolean) =>
  tx.sharedObjectRef({ objectId: pool.poolId, initialSharedVersion: pool.initialSharedVersion.toString(), mutable })

/**
 * Executes a well-signed transaction that Sui records as failed: status
 * failure with `error` matched, no events, gas charged from the one gas coin,
 * and nothing else changed.
 */
const expectFailed = (signer: Keypair, pool: PoolRef, compose: (tx: Transaction, gas: { objectId: string; version: string; digest: string }) => void, error: RegExp) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const [gas] = yield* coinRefs(signer)
    if (gas === undefined) return assert.fail("no gas coin")
    const before = yield* state(signer, pool)
    const { txBytes, signature } = yield* signed(signer, (tx) => {
      tx.setGasPayment([gas])
      compose(tx, gas)
    })
    const executed = yield* ledger.executeSigned(txBytes, [signature])
    assert.strictEqual(executed.status, "failure")
    assert.match(executed.error ?? "", error)
    assert.deepStrictEqual(executed.events, [])
    const after = yield* state(signer, pool)
    assert.strictEqual(balanceOf(after.owned), balanceOf(before.owned) - GAS_UNITS * GAS_PRICE, "only gas is charged")
    assert.deepStrictEqual(after.pool, before.pool, "the pool is untouched")
    assert.deepStrictEqual(after.owned.map((o) => o.id), before.owned.map((o) => o.id), "no object created or consumed")
  })

// === Tests ===

describe("LocalLedger refuses, or fails, the transactions Sui refuses or fails", () => {
  it("refuses a coin named twice for gas, or as gas and as an input, and changes no balance", () =>
    runOnLedger(Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const owner = seededEd25519(31, 0)
      const recipient = seededEd25519(31, 1).toSuiAddress()
      yield* fund(owner, 5_000_000_000n)
      const [gas] = yield* coinRefs(owner)
      if (gas === undefined) return assert.fail("no gas coin")
      const before = yield* ledger.ownedObjects(owner.toSuiAddress())

      // The same coin twice in the payment: its balance must not count twice, even when the transaction then fails.
      const twice = yield* signed(owner, (tx) => {
        tx.setGasPayment([gas, gas])
        const [coin] = tx.splitCoins(tx.gas, [9_000_000_000n])
        if (coin === undefined) throw new Error("splitCoins returned nothing")
        tx.transferObjects([coin], recipient)
      })
      const refusedTwice = yield* Effect.flip(ledger.executeSigned(twice.txBytes, [twice.signature]))
      assert.strictEqual(refusedTwice._tag, "LedgerRejected")
      assert.match(refusedTwice._tag === "LedgerRejected" ? refusedTwice.reason : "", /named more than once/)

      // The gas coin also passed as an owned input.
      const asInput = yield* signed(owner, (tx) => {
        tx.setGasPayment([gas])
        tx.transferObjects([tx.objectRef(gas)], recipient)
      })
      const refusedAsInput = yield* Effect.flip(ledger.executeSigned(asInput.txBytes, [asInput.signature]))
      assert.strictEqual(refusedAsInput._tag, "LedgerRejected")

      assert.deepStrictEqual(yield* ledger.ownedObjects(owner.toSuiAddress()), before, "balances and versions unchanged")
      assert.deepStrictEqual(yield* ledger.ownedObjects(recipient), [])
      for (const { bytes } of [twice, asInput]) {
        assert.isTrue(Option.isNone(yield* ledger.getRaw(TransactionDataBuilder.getDigestFromBytes(bytes))), "nothing recorded")
      }
    })))

  it("fails, charging gas, a primitive type argument and pure bytes that are not the parameter's type", () =>
    runOnLedger(Effect.gen(function*() {
      const owner = seededEd25519(32, 0)
      const pool = yield* ownerWithPool(owner, 500n)
      const withdraw = target(PACKAGE, "withdraw")

      // `withdraw<u64>`: no Pool<u64> exists, and the type argument must not crash the executor.
      yield* expectFailed(owner, pool, (tx) => {
        tx.moveCall({ target: withdraw, typeArguments: ["u64"], arguments: [sharedPool(tx, pool, true), tx.pure.u64(1n)] })
      }, /is not a Pool<u64>/)
      // A u64 of two bytes, and one of nine.
      yield* expectFailed(owner, pool, (tx) => {
        tx.moveCall({ target: withdraw, typeArguments: [SUI_COIN_TYPE], arguments: [sharedPool(tx, pool, true), tx.pure(new Uint8Array([1, 2]))] })
      }, /InvalidBCSBytes/)
      yield* expectFailed(owner, pool, (tx) => {
        tx.moveCall({ target: withdraw, typeArguments: [SUI_COIN_TYPE], arguments: [sharedPool(tx, pool, true), tx.pure(new Uint8Array(9).fill(1))] })
      }, /InvalidBCSBytes/)
      // An address of three bytes, in a framework command.
      yield* expectFailed(owner, pool, (tx) => {
        const [coin] = tx.splitCoins(tx.gas, [1n])
        if (coin === undefined) throw new Error("splitCoins returned nothing")
        tx.transferObjects([coin], tx.pure(new Uint8Array([1, 2, 3])))
      }, /InvalidBCSBytes/)
      // A split amount that is no u64.
      yield* expectFailed(owner, pool, (tx) => {
        const [coin] = tx.splitCoins(tx.gas, [tx.pure(new Uint8Array([7]))])
        if (coin === undefined) throw new Error("splitCoins returned nothing")
        tx.transferObjects([coin], owner.toSuiAddress())
      }, /InvalidBCSBytes/)
    })))

  it("fails a shared object declared immutable and passed to a &mut parameter", () =>
    runOnLedger(Effect.gen(function*() {
      const owner = seededEd25519(33, 0)
      const pool = yield* ownerWithPool(owner, 500n)
      yield* expectFailed(owner, pool, (tx) => {
        tx.moveCall({ target: target(PACKAGE, "withdraw"), typeArguments: [SUI_COIN_TYPE], arguments: [sharedPool(tx, pool, false), tx.pure.u64(1n)] })
      }, /InvalidObjectByMutRef/)
      // The same call with the pool declared mutable succeeds.
      const ledger = yield* LocalLedger
      const [gas] = yield* coinRefs(owner)
      if (gas === undefined) return assert.fail("no gas coin")
      const ok = yield* signed(owner, (tx) => {
        tx.setGasPayment([gas])
        tx.moveCall({ target: target(PACKAGE, "withdraw"), typeArguments: [SUI_COIN_TYPE], arguments: [sharedPool(tx, pool, true), tx.pure.u64(1n)] })
      })
      assert.strictEqual((yield* ledger.executeSigned(ok.txBytes, [ok.signature])).status, "success")
    })))

  it("reads the Move calls of a malformed transaction without throwing (the live adapter's view)", () =>
    runOnLedger(Effect.gen(function*() {
      const owner = seededEd25519(34, 0)
      const pool = yield* ownerWithPool(owner, 500n)
      const [gas] = yield* coinRefs(owner)
      if (gas === undefined) return assert.fail("no gas coin")
      const { bytes } = yield* signed(owner, (tx) => {
        tx.setGasPayment([gas])
        tx.moveCall({
          target: target(PACKAGE, "withdraw"),
          typeArguments: ["vector<u8>"],
          arguments: [sharedPool(tx, pool, true), tx.pure(new Uint8Array([1, 2]))]
        })
      })
      const calls = moveCallsOf(PACKAGE, bcs.TransactionData.parse(bytes))
      assert.deepStrictEqual(calls.map((c) => [c.function, c.typeArguments, c.arguments]), [["withdraw", ["vector<u8>"], [pool.poolId, null]]])
    })))
})
