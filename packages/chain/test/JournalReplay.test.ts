import type { Keypair } from "@mysten/sui/cryptography"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { executeKind } from "@gateway/client/OwnerWallet"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Unavailable } from "@gateway/domain/Errors"
import { Chain } from "../src/Chain.ts"
import { type JournalEntry, LedgerJournal } from "../src/local/LedgerJournal.ts"
import { localLedgerAccess } from "../src/local/LocalLedgerAccess.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"
import { PACKAGE, seededEd25519 } from "./LedgerHarness.ts"

// === Helpers ===

/** A journal both ledgers of a test share: the second replays what the first wrote. */
const sharedJournal = () => {
  const entries: Array<JournalEntry> = []
  return {
    entries,
    layer: Layer.succeed(LedgerJournal, LedgerJournal.of({ load: Effect.sync(() => [...entries]), append: (entry) => Effect.sync(() => void entries.push(entry)) }))
  }
}

const onJournal = <A, E>(journal: Layer.Layer<LedgerJournal>, self: Effect.Effect<A, E, LocalLedger | Chain>) =>
  Effect.runPromise(self.pipe(
    Effect.provide(Chain.layerLocal.pipe(
      Layer.provideMerge(LocalLedger.layer({ packageId: PACKAGE, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
      Layer.provide(journal)
    )),
    Effect.provide(TestClock.layer()),
    Effect.scoped
  ))

/** Everything a reader can see of the ledger, for the addresses and digests of the test. */
const view = (addresses: ReadonlyArray<string>, digests: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    return {
      latestCheckpoint: yield* ledger.latestCheckpoint,
      owned: yield* Effect.forEach(addresses, ledger.ownedObjects),
      shared: yield* ledger.finalSharedObjects,
      transactions: yield* Effect.forEach(digests, (digest) => Effect.result(ledger.getTransaction(digest))),
      raw: yield* Effect.forEach(digests, ledger.getRaw)
    }
  })

const submit = (txKindBytes: string, signer: Keypair) => Effect.flatMap(localLedgerAccess, (access) => executeKind(txKindBytes, signer, access))

// === Tests ===

describe("LocalLedger's journal", () => {
  it("replays into exactly the live state under the never-final and drop-after-execute faults", async () => {
    const journal = sharedJournal()
    const owner = seededEd25519(41, 0)
    const addresses = [owner.toSuiAddress()]

    const live = await onJournal(journal.layer, Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const chain = yield* Chain
      yield* TestClock.setTime(1_000_000)
      yield* ledger.mint(owner.toSuiAddress(), SUI_COIN_TYPE, 5_000_000_000n)

      // Executed, then a checkpoint under neverFinal that must finalize nothing, not even on replay.
      const kept = yield* submit((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 700n })).txKindBytes, owner)
      yield* ledger.setFaults({ neverFinal: true })
      yield* ledger.checkpoint
      assert.strictEqual((yield* ledger.getTransaction(kept.digest)).checkpoint, null, "never final")

      // Executed and dropped: it must not come back on replay.
      yield* ledger.setFaults({ neverFinal: false, dropAfterExecute: true })
      yield* TestClock.adjust(10)
      const dropped = yield* submit((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 300n })).txKindBytes, owner)
      yield* ledger.setFaults({ dropAfterExecute: false })
      assert.isTrue(Option.isNone(yield* ledger.getRaw(dropped.digest)), "the dropped transaction is not on the ledger")

      const digests = [kept.digest, dropped.digest]
      const beforeFinal = yield* view(addresses, digests)
      // And the pending transaction becomes final at the next, fault-free checkpoint.
      yield* ledger.checkpoint
      return { digests, beforeFinal, afterFinal: yield* view(addresses, digests) }
    }))

    // A ledger that replays the journal up to just before the last checkpoint, then all of it.
    const last = journal.entries.at(-1)
    assert.strictEqual(last?._tag, "Checkpoint")
    const upToLast = sharedJournal()
    upToLast.entries.push(...journal.entries.slice(0, -1))
    assert.deepStrictEqual(await onJournal(upToLast.layer, view(addresses, live.digests)), live.beforeFinal)
    assert.deepStrictEqual(await onJournal(journal.layer, view(addresses, live.digests)), live.afterFinal)
    assert.strictEqual(live.afterFinal.latestCheckpoint, 2n)
    assert.strictEqual(journal.entries.filter((e) => e._tag === "Execute").length, 1, "the dropped transaction was not journaled")
  })

  it("makes the ledger UNAVAILABLE, changing nothing, while the journal cannot be written", async () => {
    const owner = seededEd25519(42, 0)
    let writable = true
    const entries: Array<JournalEntry> = []
    const flaky = Layer.succeed(LedgerJournal, LedgerJournal.of({
      load: Effect.sync(() => [...entries]),
      append: (entry) =>
        writable ? Effect.sync(() => void entries.push(entry)) : Effect.fail(new Unavailable({ message: "The chain is unavailable", reason: "ledger_journal_unreachable" }))
    }))
    await onJournal(flaky, Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const chain = yield* Chain
      yield* ledger.mint(owner.toSuiAddress(), SUI_COIN_TYPE, 5_000_000_000n)
      const kind = (yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 700n })).txKindBytes
      const before = yield* ledger.ownedObjects(owner.toSuiAddress())
      writable = false
      assert.strictEqual((yield* Effect.flip(submit(kind, owner)))._tag, "UNAVAILABLE")
      assert.strictEqual((yield* Effect.flip(ledger.mint(owner.toSuiAddress(), SUI_COIN_TYPE, 1n)))._tag, "UNAVAILABLE")
      assert.deepStrictEqual(yield* ledger.ownedObjects(owner.toSuiAddress()), before, "nothing committed")
      writable = true
      // The same transaction goes through once the journal is back: the refusal left no trace.
      assert.strictEqual((yield* submit(kind, owner)).status, "success")
      const minted = yield* ledger.mint(owner.toSuiAddress(), SUI_COIN_TYPE, 1n)
      assert.isTrue(Option.isSome(yield* ledger.getObject(minted.id)))
    }))
    assert.deepStrictEqual(entries.map((e) => e._tag), ["Mint", "Execute", "Mint"])
  })
})
