import { TransactionError } from "@mysten/sui/client"
import { RpcError } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeStructTag } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Layer, Option } from "effect"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { Events, poolIdOf, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Unavailable } from "@gateway/domain/Errors"
import { Chain } from "@gateway/chain/Chain"
import { type JournalEntry, LedgerJournal } from "../src/LedgerJournal.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import { Client, execute, fund, ledgerLayer, type Origin, PKG, promise, seededEd25519, submit, transactionOf } from "./LedgerHarness.ts"

// === Helpers ===

/** A journal several ledgers of a test share, one after another: each restart replays what the ones before wrote. */
const sharedJournal = (entries: Array<JournalEntry> = []) => ({
  entries,
  layer: Layer.succeed(LedgerJournal, LedgerJournal.of({ load: Effect.sync(() => [...entries]), append: (entry) => Effect.sync(() => void entries.push(entry)) }))
})

/** Runs `self` on a ledger started on `journal`, behind its own server; the ledger stops when `self` ends. */
const onJournal = <A, E>(journal: Layer.Layer<LedgerJournal>, self: Effect.Effect<A, E, LocalLedger | Client | Chain | Origin>) =>
  Effect.provide(self, ledgerLayer(journal))

const TEST_COIN = `0x${"c0".padEnd(64, "0")}::test::USD`
/** A coin type minted with metadata, as a published coin has. */
const PUBLISHED_COIN = `0x${"c4".padEnd(64, "0")}::usdc::USDC`

/** A transaction as the node answers it, or that it knows no such digest. */
const lookup = (digest: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    return yield* Effect.tryPromise({
      try: () => client.core.getTransaction({ digest, include: { effects: true, events: true, bcs: true, balanceChanges: true } }).then(transactionOf),
      catch: (error) => error
    }).pipe(Effect.catchIf((error) => error instanceof TransactionError && error.reason === "notFound", () => Effect.succeed("notFound" as const)))
  })

/** Everything a reader can see of the ledger through the node, for the addresses, objects and digests of the test. */
const view = (input: { readonly addresses: ReadonlyArray<string>; readonly objects: ReadonlyArray<string>; readonly digests: ReadonlyArray<string> }) =>
  Effect.gen(function*() {
    const client = yield* Client
    const latest = (yield* promise(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: undefined }, readMask: { paths: ["sequence_number", "digest", "summary.timestamp"] } }).response)).checkpoint
    const include = { content: true, objectBcs: true, previousTransaction: true } as const
    return {
      latestCheckpoint: { sequenceNumber: latest?.sequenceNumber, digest: latest?.digest, timestamp: latest?.summary?.timestamp },
      owned: yield* Effect.forEach(input.addresses, (owner) => promise(() => client.core.listOwnedObjects({ owner, include }).then((page) => page.objects))),
      objects: (yield* promise(() => client.core.getObjects({ objectIds: [...input.objects], include }))).objects.map((o) => (o instanceof Error ? o.message : o)),
      transactions: yield* Effect.forEach(input.digests, lookup)
    }
  })

/**
 * A ledger's life worth replaying: an owner funds a pool, grants a delegate,
 * the delegate pays; everything final. Answers what a reader would check
 * after a restart.
 */
const grantAndPay = Effect.gen(function*() {
  const chain = yield* Chain
  const owner = seededEd25519(43, 0)
  const delegate = seededEd25519(43, 1)
  const recipient = seededEd25519(43, 2).toSuiAddress()
  for (const key of [owner, delegate]) yield* fund(key)
  const created = yield* execute((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n })).txKindBytes, owner)
  const pool = yield* chain.findPool(owner.toSuiAddress(), SUI_COIN_TYPE)
  if (Option.isNone(pool)) return yield* Effect.die("no pool")
  const deadlineMs = BigInt(yield* Clock.currentTimeMillis) + 3_600_000n
  const granted = yield* execute(
    (yield* chain.buildCreateGrant({
      sender: owner.toSuiAddress(),
      pool: pool.value,
      grantId: "g_restart",
      deadlineMs,
      delegate: delegate.toSuiAddress(),
      sessionCap: 100n,
      maxPerPayment: 50n,
      expiryMs: 0n,
      window: { kind: WindowKind.none },
      recipients: [],
      policyIds: [1n]
    })).txKindBytes,
    owner
  )
  const [event] = granted.events
  if (event === undefined) return yield* Effect.die("no GrantCreated")
  const grantId = Events.GrantCreated.parse(event.bcs).grant_id
  const paid = yield* execute(
    (yield* chain.buildPay({ sender: delegate.toSuiAddress(), grantObjectId: grantId, amount: 30n, recipient, memo: new Uint8Array([9]) })).txKindBytes,
    delegate
  )
  for (const tx of [created, granted, paid]) assert.isTrue(tx.status.success, tx.status.error?.message)
  return {
    addresses: [owner.toSuiAddress(), delegate.toSuiAddress(), recipient],
    objects: [pool.value.poolId, grantId, PKG.registryId],
    digests: [created.digest, granted.digest, paid.digest]
  }
})

/** What starting a ledger on `entries` fails with; a ledger that starts is a failed test. */
const startFailure = (entries: Array<JournalEntry>) =>
  Effect.flip(onJournal(sharedJournal(entries).layer, Effect.void)).pipe(
    Effect.map((error) => (error instanceof Unavailable ? error : assert.fail(`not UNAVAILABLE: ${String(error)}`)))
  )

// === Tests ===

describe("LocalLedger's journal", () => {
  it.live("replays into exactly the live state under the never-final and drop-after-execute faults", () =>
    Effect.gen(function*() {
      const journal = sharedJournal()
      const owner = seededEd25519(41, 0)
      const seen = { addresses: [owner.toSuiAddress()], objects: [poolIdOf(PKG, owner.toSuiAddress(), SUI_COIN_TYPE)] }

      const live = yield* onJournal(journal.layer, Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const chain = yield* Chain
        yield* fund(owner)

        // Executed, then a checkpoint under neverFinal that must finalize nothing, not even on replay.
        const kept = yield* submit((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 700n })).txKindBytes, owner)
        yield* ledger.setFaults({ neverFinal: true })
        yield* ledger.checkpoint
        const unfinal = yield* lookup(kept.digest)
        assert.strictEqual(unfinal === "notFound" ? "notFound" : unfinal.checkpoint, null, "never final")

        // Executed and dropped: it must not come back on replay.
        yield* ledger.setFaults({ neverFinal: false, dropAfterExecute: true })
        const dropped = yield* submit((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 300n })).txKindBytes, owner)
        yield* ledger.setFaults({ dropAfterExecute: false })
        assert.strictEqual(yield* lookup(dropped.digest), "notFound", "the dropped transaction is not on the ledger")

        const digests = [kept.digest, dropped.digest]
        const beforeFinal = yield* view({ ...seen, digests })
        // And the pending transaction becomes final at the next, fault-free checkpoint.
        yield* ledger.checkpoint
        return { digests, beforeFinal, afterFinal: yield* view({ ...seen, digests }) }
      }))

      // A ledger that replays the journal up to just before the last checkpoint, then all of it.
      assert.strictEqual(journal.entries.at(-1)?._tag, "Checkpoint")
      const upToLast = sharedJournal(journal.entries.slice(0, -1))
      assert.deepStrictEqual(yield* onJournal(upToLast.layer, view({ ...seen, digests: live.digests })), live.beforeFinal)
      assert.deepStrictEqual(yield* onJournal(journal.layer, view({ ...seen, digests: live.digests })), live.afterFinal)
      assert.strictEqual(live.afterFinal.latestCheckpoint.sequenceNumber, 2n)
      // The faucet's transfer and the kept transaction; the dropped one was not journaled.
      assert.deepStrictEqual(journal.entries.flatMap((e) => (e._tag === "Execute" ? [e.digest] : [])).includes(live.digests[1]), false, "the dropped transaction was not journaled")
      assert.strictEqual(journal.entries.filter((e) => e._tag === "Execute").length, 2)
    }))

  it.live("makes the ledger UNAVAILABLE, changing nothing, while the journal cannot be written", () =>
    Effect.gen(function*() {
      const owner = seededEd25519(42, 0)
      let writable = true
      const entries: Array<JournalEntry> = []
      const flaky = Layer.succeed(LedgerJournal, LedgerJournal.of({
        load: Effect.sync(() => [...entries]),
        append: (entry) =>
          writable ? Effect.sync(() => void entries.push(entry)) : Effect.fail(new Unavailable({ message: "The chain is unavailable", reason: "ledger_journal_unreachable" }))
      }))
      yield* onJournal(flaky, Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const chain = yield* Chain
        const client = yield* Client
        yield* fund(owner)
        // Built and signed once, so the retry below sends the very bytes that were refused.
        const transaction = Transaction.fromKind(fromBase64((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 700n })).txKindBytes))
        transaction.setSender(owner.toSuiAddress())
        const bytes = yield* promise(() => transaction.build({ client }))
        const { signature } = yield* promise(() => owner.signTransaction(bytes))
        const send = Effect.tryPromise({ try: () => client.core.executeTransaction({ transaction: bytes, signatures: [signature] }), catch: (error) => error })
        const owned = promise(() => client.core.listOwnedObjects({ owner: owner.toSuiAddress() }).then((page) => page.objects))
        const before = yield* owned

        writable = false
        const refused = yield* Effect.flip(send)
        assert.isTrue(refused instanceof RpcError && refused.code === "UNAVAILABLE", String(refused))
        assert.strictEqual((yield* Effect.flip(ledger.mint(owner.toSuiAddress(), TEST_COIN, 1n)))._tag, "UNAVAILABLE")
        assert.deepStrictEqual(yield* owned, before, "nothing committed")

        writable = true
        // The same signed transaction goes through once the journal is back: the refusal left no trace.
        assert.strictEqual(transactionOf(yield* Effect.orDie(send)).status.success, true)
        const minted = yield* ledger.mint(owner.toSuiAddress(), TEST_COIN, 1n)
        const { objects } = yield* promise(() => client.core.getObjects({ objectIds: [minted.id] }))
        assert.deepStrictEqual(objects.map((o) => (o instanceof Error ? o.message : normalizeStructTag(o.type))), [
          normalizeStructTag(`0x2::coin::Coin<${TEST_COIN}>`)
        ])
      }))
      // The faucet's transfer is a transaction like any other; `mint` stays a mint.
      assert.deepStrictEqual(entries.map((e) => e._tag), ["Execute", "Execute", "Mint"])
    }))

  it.live("gives every object the same id, version and digest after a restart, and every transaction the same effects", () =>
    Effect.gen(function*() {
      const journal = sharedJournal()
      const { live, seen } = yield* onJournal(journal.layer, Effect.gen(function*() {
        const seen = yield* grantAndPay
        return { seen, live: yield* view(seen) }
      }))
      const [poolId] = seen.objects
      const [owner] = seen.addresses
      assert.strictEqual(poolId, poolIdOf(PKG, owner ?? "", SUI_COIN_TYPE))
      assert.isTrue(live.objects.every((o) => typeof o !== "string"), "every object was found")
      assert.isTrue(live.transactions.every((tx) => tx !== "notFound" && tx.checkpoint !== null), "every transaction is final")
      const restarted = yield* onJournal(journal.layer, view(seen))
      assert.deepStrictEqual(restarted, live)
      // A second restart, on a journal the first one did not add to.
      assert.deepStrictEqual(yield* onJournal(journal.layer, view(seen)), live)
    }))

  it.live("answers a minted coin type's metadata after a restart as before, and none for a type minted without", () =>
    Effect.gen(function*() {
      const journal = sharedJournal()
      const holder = seededEd25519(44, 0).toSuiAddress()
      const published = { decimals: 6, name: "USD Coin", symbol: "USDC", description: "", iconUrl: "" }
      const read = Effect.gen(function*() {
        const client = yield* Client
        return yield* Effect.forEach([PUBLISHED_COIN, TEST_COIN], (coinType) => promise(() => client.core.getCoinMetadata({ coinType }).then((answer) => answer.coinMetadata)))
      })
      const live = yield* onJournal(journal.layer, Effect.gen(function*() {
        const ledger = yield* LocalLedger
        yield* ledger.mint(holder, PUBLISHED_COIN, 5n, { decimals: 6, name: "USD Coin" })
        yield* ledger.mint(holder, TEST_COIN, 5n)
        return yield* read
      }))
      assert.deepStrictEqual(live, [{ id: null, ...published }, null])
      // Journaled with its mint as published, defaults filled; a mint without metadata is journaled as before there was any.
      const mints = journal.entries.flatMap((entry) => (entry._tag === "Mint" ? [entry] : []))
      const [withMetadata, without] = mints
      if (withMetadata === undefined || without === undefined) return assert.fail("expected two Mint entries")
      assert.deepStrictEqual(withMetadata.metadata, published)
      assert.isFalse("metadata" in without)

      // The restarted ledger answers the same, and holds the metadata as fixed as the live one did.
      const restarted = yield* onJournal(journal.layer, Effect.gen(function*() {
        const refused = yield* Effect.flip((yield* LocalLedger).mint(holder, PUBLISHED_COIN, 1n, { decimals: 9 }))
        assert.strictEqual(refused._tag, "LedgerRejected")
        return yield* read
      }))
      assert.deepStrictEqual(restarted, live)

      // A journal whose mints disagree on a type's metadata (no live ledger writes one) does not start.
      const conflicting = yield* startFailure([...mints, { ...withMetadata, metadata: { ...published, decimals: 9 } }])
      assert.match(conflicting.reason, /journal entry 2 \(mint\) is now refused: .*fixed once published/)
    }))

  it.live("fails to start, loudly, on a journal whose Execute entries replay to another digest or status, or are now refused", () =>
    Effect.gen(function*() {
      const journal = sharedJournal()
      yield* onJournal(journal.layer, grantAndPay)
      const executes = journal.entries.flatMap((entry, index) => (entry._tag === "Execute" ? [{ entry, index }] : []))
      const [first, second] = executes
      if (first === undefined || second === undefined) return assert.fail("expected Execute entries")
      const replacing = (index: number, entry: JournalEntry) => journal.entries.map((e, i) => (i === index ? entry : e))
      const diverged = "The local ledger's journal does not replay to the state it recorded"

      // The pay recorded as failed, which replay runs successfully.
      const status = yield* startFailure(replacing(second.index, { ...second.entry, status: "failure" }))
      assert.strictEqual(status.message, diverged)
      assert.match(status.reason, new RegExp(`journal entry ${second.index} recorded ${second.entry.digest} failure, replay gave ${second.entry.digest} success`))

      // Another transaction's digest recorded against these bytes.
      const digest = yield* startFailure(replacing(second.index, { ...second.entry, digest: first.entry.digest ?? "" }))
      assert.strictEqual(digest.message, diverged)
      assert.match(digest.reason, new RegExp(`journal entry ${second.index} recorded ${first.entry.digest} success, replay gave ${second.entry.digest}`))

      // Without the faucet's first transfer, its next one names a version of the faucet's coin that replay never made: refused.
      const firstTransfer = journal.entries.findIndex((e) => e._tag === "Execute")
      const refused = yield* startFailure(journal.entries.filter((_, i) => i !== firstTransfer))
      assert.strictEqual(refused.message, diverged)
      assert.match(refused.reason, /journal entry \d+ \(\S+\) is now refused: /)

      // The untouched journal still starts.
      yield* onJournal(journal.layer, Effect.void)
    }))
})
