import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"
import { Console, Data, Effect, Layer, Runtime, Schema } from "effect"
import { tryLock } from "fs-native-extensions"
import { Unavailable } from "@gateway/domain/Errors"
import { JournalEntry, LedgerJournal } from "./LedgerJournal.ts"

/** The journal's file inside its folder: one `JournalEntry` as JSON per line, in the order the ledger wrote them. */
export const JOURNAL_FILE = "journal.jsonl"

/** Start-up refused: another process holds this folder's journal. */
export class JournalTaken extends Data.TaggedError("JournalTaken")<{ readonly message: string }> {
  // The message, on stderr, is the whole story for the operator: a stack trace would add nothing.
  override readonly [Runtime.errorReported] = false
}

const codec = Schema.fromJsonString(JournalEntry)

const unwritable = (error: unknown) =>
  new Unavailable({ message: `The ledger's journal cannot be written: ${String(error)}`, reason: "ledger_journal_unwritable" })

/**
 * The complete lines of a journal. A last line without its newline is an
 * append the process died during, before the ledger applied it or answered
 * anyone: it is cut off, so the next append starts a line of its own.
 */
const completeLines = (fd: number) => {
  const bytes = readFileSync(fd)
  const end = bytes.lastIndexOf(0x0a) + 1
  if (end < bytes.length) ftruncateSync(fd, end)
  return bytes.subarray(0, end).toString("utf8").split("\n").filter((line) => line !== "")
}

/**
 * LocalLedger's journal in `folder/journal.jsonl`, read once at start and
 * appended to after. One process at a time: the file is locked with the
 * kernel's exclusive open-file-description lock, which dies with the process
 * however it ends, so no lock outlives its holder; two writers would hand out
 * the same object ids. Appends are plain writes, not synced: they survive the
 * process dying, which is what a local node needs.
 */
export const layerJournalFile = (folder: string): Layer.Layer<LedgerJournal, JournalTaken> =>
  Layer.effect(
    LedgerJournal,
    Effect.gen(function*() {
      const path = join(resolve(folder), JOURNAL_FILE)
      const fd = yield* Effect.acquireRelease(
        Effect.suspend(() => {
          mkdirSync(resolve(folder), { recursive: true, mode: 0o700 })
          const opened = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND, 0o600)
          if (tryLock(opened)) return Effect.succeed(opened)
          closeSync(opened)
          const message = `LEDGER_DATA_DIR ${resolve(folder)} is in use: another ledger process holds ${path}. Stop it, or give this one another LEDGER_DATA_DIR`
          return Console.error(message).pipe(Effect.andThen(Effect.fail(new JournalTaken({ message }))))
        }),
        (opened) => Effect.sync(() => closeSync(opened))
      )
      const lines = completeLines(fd)
      return LedgerJournal.of({
        load: Effect.forEach(lines, (line, index) =>
          Schema.decodeUnknownEffect(codec)(line).pipe(
            Effect.mapError(() => new Unavailable({ message: `${path} line ${index + 1} is not a journal entry`, reason: "ledger_journal_unreadable" }))
          )),
        append: (entry) =>
          Schema.encodeEffect(codec)(entry).pipe(
            Effect.mapError(unwritable),
            Effect.flatMap((json) => Effect.try({ try: () => void writeSync(fd, `${json}\n`), catch: unwritable }))
          )
      })
    })
  )
