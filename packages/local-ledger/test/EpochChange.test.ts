import type { Signer } from "@mysten/sui/cryptography"
import { RpcError } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { Unavailable } from "@gateway/domain/Errors"
import { type JournalEntry, LedgerJournal } from "../src/LedgerJournal.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import { Client, fund, ledgerLayer, promise, seededEd25519, transactionOf } from "./LedgerHarness.ts"

/** A journal ledgers share one after another: each restart replays what the ones before wrote. */
const sharedJournal = (entries: Array<JournalEntry>) =>
  Layer.succeed(LedgerJournal, LedgerJournal.of({ load: Effect.sync(() => [...entries]), append: (entry) => Effect.sync(() => void entries.push(entry)) }))

/** What the call fails with, as text. */
const failureOf = <A>(call: () => Promise<A>) =>
  Effect.flip(Effect.tryPromise({ try: call, catch: (error) => error })).pipe(Effect.map((error) => (error instanceof Error ? error.message : String(error))))

/**
 * A payment signed now and executed later, as sign-first agents hand them
 * over: 1 MIST to itself, gas chosen by the node, expiring with `epoch`.
 */
const signed = (signer: Signer, epoch: number) =>
  Effect.gen(function*() {
    const client = yield* Client
    const tx = new Transaction()
    tx.setSender(signer.toSuiAddress())
    const [coin] = tx.splitCoins(tx.gas, [1n])
    tx.transferObjects([coin ?? tx.gas], signer.toSuiAddress())
    tx.setExpiration({ Epoch: epoch })
    const bytes = yield* promise(() => tx.build({ client }))
    const { signature } = yield* promise(() => signer.signTransaction(bytes))
    return { bytes, signature }
  })

const executeSigned = (payment: { readonly bytes: Uint8Array; readonly signature: string }) =>
  Effect.gen(function*() {
    const client = yield* Client
    return transactionOf(yield* promise(() => client.core.executeTransaction({ transaction: payment.bytes, signatures: [payment.signature], include: { effects: true } })))
  })

const currentEpoch = Effect.gen(function*() {
  const client = yield* Client
  return (yield* promise(() => client.ledgerService.getEpoch({}).response)).epoch
})

describe("LocalLedger's epochs", () => {
  it.live("a transaction expiring with epoch 0 executes in it, and is refused as expired once the epoch has changed", () =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const client = yield* Client
      const payer = seededEd25519(91, 0)
      yield* fund(payer)

      const inTime = yield* executeSigned(yield* signed(payer, 0))
      assert.isTrue(inTime.status.success, inTime.status.error?.message)
      assert.strictEqual(inTime.epoch, "0")
      const late = yield* signed(payer, 0)
      const nextEpoch = yield* signed(payer, 1)

      assert.deepStrictEqual(yield* ledger.advanceEpoch(), { epoch: 1n })
      // The epoch's own checkpoint made what it executed final, in epoch 0.
      const closed = yield* promise(() => client.core.getTransaction({ digest: inTime.digest })).pipe(Effect.map(transactionOf))
      assert.isNotNull(closed.checkpoint)
      const closing = (yield* promise(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber: BigInt(closed.checkpoint ?? -1) }, readMask: { paths: ["summary.epoch"] } }).response)).checkpoint
      assert.strictEqual(closing?.summary?.epoch, 0n)

      assert.match(yield* failureOf(() => client.core.executeTransaction({ transaction: late.bytes, signatures: [late.signature] })), /TransactionExpired: valid until epoch 0, the current epoch is 1/)
      // Signed for epoch 1 it is still good, and its effects and checkpoint say epoch 1.
      const executed = yield* executeSigned(nextEpoch)
      assert.isTrue(executed.status.success, executed.status.error?.message)
      assert.strictEqual(executed.epoch, "1")
      const sequenceNumber = yield* ledger.checkpoint
      const checkpoint = (yield* promise(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber }, readMask: { paths: ["summary.epoch"] } }).response)).checkpoint
      assert.strictEqual(checkpoint?.summary?.epoch, 1n)
      assert.strictEqual((yield* promise(() => client.ledgerService.getServiceInfo({}).response)).epoch, 1n)
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("GetEpoch and the system state report the new epoch, its start and its reference gas price; past epochs with their end", () =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const client = yield* Client
      const genesis = yield* promise(() => client.core.getCurrentSystemState())
      assert.strictEqual(genesis.systemState.epoch, "0")
      assert.strictEqual(genesis.systemState.referenceGasPrice, "1000")

      const before = yield* ledger.now
      yield* ledger.advanceEpoch({ referenceGasPrice: 1_500n })
      const epoch = yield* currentEpoch
      assert.strictEqual(epoch?.epoch, 1n)
      assert.strictEqual(epoch?.referenceGasPrice, 1_500n)
      const startMs = Number(epoch?.start?.seconds ?? 0n) * 1000 + Math.floor((epoch?.start?.nanos ?? 0) / 1e6)
      assert.isAtLeast(startMs, before)
      assert.isAtMost(startMs, yield* Clock.currentTimeMillis)
      assert.isUndefined(epoch?.end, "the current epoch has not ended")

      const { systemState } = yield* promise(() => client.core.getCurrentSystemState())
      assert.strictEqual(systemState.epoch, "1")
      assert.strictEqual(systemState.referenceGasPrice, "1500")
      assert.strictEqual(systemState.epochStartTimestampMs, String(startMs))
      assert.strictEqual(systemState.parameters.epochDurationMs, "86400000")
      assert.strictEqual((yield* promise(() => client.core.getReferenceGasPrice())).referenceGasPrice, "1500")

      const past = (yield* promise(() => client.ledgerService.getEpoch({ epoch: 0n }).response)).epoch
      assert.strictEqual(past?.referenceGasPrice, 1_000n)
      assert.deepStrictEqual(past?.end, epoch?.start, "epoch 0 ended as epoch 1 began")
      assert.strictEqual(past?.lastCheckpoint, (epoch?.firstCheckpoint ?? 0n) - 1n)
      const unknown = yield* Effect.flip(Effect.tryPromise({ try: () => client.ledgerService.getEpoch({ epoch: 2n }).response, catch: (error) => error }))
      assert.isTrue(unknown instanceof RpcError && unknown.code === "NOT_FOUND", String(unknown))
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("a gas price below a raised reference gas price is refused; the SDK pays the new one", () =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const client = yield* Client
      const payer = seededEd25519(92, 0)
      yield* fund(payer)
      yield* ledger.advanceEpoch({ referenceGasPrice: 2_000n })

      const tx = new Transaction()
      tx.setSender(payer.toSuiAddress())
      tx.transferObjects([tx.splitCoins(tx.gas, [1n])], payer.toSuiAddress())
      tx.setGasPrice(1_000n)
      // Budget and coins set too, so nothing is simulated: the refusal is the execution's.
      tx.setGasBudget(10_000_000n)
      const { objects } = yield* promise(() => client.core.listCoins({ owner: payer.toSuiAddress() }))
      tx.setGasPayment(objects.map((c) => ({ objectId: c.objectId, version: c.version, digest: c.digest })))
      const refused = yield* failureOf(() => client.core.signAndExecuteTransaction({ transaction: tx, signer: payer }))
      assert.match(refused, /Gas price 1000 under reference gas price \(RGP\) 2000/)

      const repriced = new Transaction()
      repriced.transferObjects([repriced.splitCoins(repriced.gas, [1n])], payer.toSuiAddress())
      const paid = transactionOf(yield* promise(() => client.core.signAndExecuteTransaction({ transaction: repriced, signer: payer, include: { effects: true, transaction: true } })))
      assert.isTrue(paid.status.success, paid.status.error?.message)
      assert.strictEqual(paid.transaction.gasData.price, "2000")
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("a restarted ledger replays to the same epoch, start and reference gas price", () =>
    Effect.gen(function*() {
      const entries: Array<JournalEntry> = []
      const payer = seededEd25519(93, 0)
      const live = yield* Effect.gen(function*() {
        const ledger = yield* LocalLedger
        yield* fund(payer)
        yield* ledger.advanceEpoch()
        const late = yield* signed(payer, 1)
        yield* ledger.advanceEpoch({ referenceGasPrice: 1_200n })
        return { epoch: yield* currentEpoch, late }
      }).pipe(Effect.provide(ledgerLayer(sharedJournal(entries))))
      assert.deepStrictEqual(entries.filter((e) => e._tag === "AdvanceEpoch").map((e) => e.epoch), ["1", "2"])

      const replayed = yield* Effect.gen(function*() {
        const client = yield* Client
        const refused = yield* failureOf(() => client.core.executeTransaction({ transaction: live.late.bytes, signatures: [live.late.signature] }))
        return { epoch: yield* currentEpoch, refused }
      }).pipe(Effect.provide(ledgerLayer(sharedJournal(entries))))
      assert.deepStrictEqual(replayed.epoch, live.epoch)
      assert.strictEqual(replayed.epoch?.epoch, 2n)
      assert.strictEqual(replayed.epoch?.referenceGasPrice, 1_200n)
      assert.match(replayed.refused, /TransactionExpired: valid until epoch 1, the current epoch is 2/)

      // A journal whose epochs do not follow one another is not this ledger's: it refuses to start.
      const skipping = entries.map((e): JournalEntry => (e._tag === "AdvanceEpoch" && e.epoch === "2" ? { ...e, epoch: "3" } : e))
      const failure = yield* Effect.flip(Effect.provide(Effect.void, ledgerLayer(sharedJournal(skipping))))
      assert.isTrue(failure instanceof Unavailable && /starts epoch 3, replay is at epoch 2/.test(failure.reason), String(failure))
    }))
})
