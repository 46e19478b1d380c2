import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { type JournalEntry, LedgerJournal } from "../src/LedgerJournal.ts"
import { JOURNAL_FILE, layerJournalFile } from "../src/LedgerJournalFile.ts"

const mint: JournalEntry = { _tag: "Mint", recipient: "0x1", coinType: "0x2::sui::SUI", amount: "10", atMs: 1 }
const checkpoint: JournalEntry = { _tag: "Checkpoint", atMs: 2, digests: [] }

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "ledger-journal-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("the ledger's journal in a file", () => {
  it.live("drops an append cut short by a crash, then appends whole lines after the last whole one", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const path = join(dir, JOURNAL_FILE)
      writeFileSync(path, `${JSON.stringify(mint)}\n{"_tag":"Checkp`)
      const loaded = yield* Effect.gen(function*() {
        const journal = yield* LedgerJournal
        const entries = yield* journal.load
        yield* journal.append(checkpoint)
        return entries
      }).pipe(Effect.provide(layerJournalFile(dir)))
      assert.deepStrictEqual(loaded, [mint])
      assert.strictEqual(readFileSync(path, "utf8"), `${JSON.stringify(mint)}\n${JSON.stringify(checkpoint)}\n`)
    }))

  it.live("reads a mint written before coin metadata as one without, and one with metadata back as written", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      // A line as journals wrote a mint before mints could give metadata.
      writeFileSync(join(dir, JOURNAL_FILE), `{"_tag":"Mint","recipient":"0x1","coinType":"0x2::sui::SUI","amount":"10","atMs":1}\n`)
      const published: JournalEntry = { ...mint, coinType: "0x3::usdc::USDC", metadata: { decimals: 6, name: "USDC", symbol: "USDC", description: "", iconUrl: "" } }
      // Opened twice, one process after another: the second reads what the first appended.
      yield* Effect.provide(Effect.gen(function*() {
        yield* (yield* LedgerJournal).append(published)
      }), layerJournalFile(dir))
      const loaded = yield* Effect.provide(Effect.gen(function*() {
        return yield* (yield* LedgerJournal).load
      }), layerJournalFile(dir))
      assert.deepStrictEqual(loaded, [mint, published])
    }))

  it.live("is held by one opener at a time, and free again once it is closed", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const open = Effect.scoped(Effect.asVoid(Layer.build(layerJournalFile(dir))))
      const second = yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(layerJournalFile(dir))
        return yield* Effect.exit(open)
      }))
      assert.isTrue(Exit.isFailure(second))
      assert.isTrue(Exit.isSuccess(yield* Effect.exit(open)))
    }))
})
