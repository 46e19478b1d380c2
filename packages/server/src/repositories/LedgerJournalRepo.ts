import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { JournalEntry, LedgerJournal } from "@gateway/chain/local/LedgerJournal"

const codec = Schema.fromJsonString(JournalEntry)

/**
 * LocalLedger's journal in the project's SQL store, so `npm start` keeps the
 * local chain across restarts. A journal that cannot be written is a defect:
 * the ledger must not run ahead of what it can replay.
 */
export const LedgerJournalSql = Layer.effect(
  LedgerJournal,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return LedgerJournal.of({
      load: sql<{ entry: string }>`SELECT entry FROM ledger_journal ORDER BY seq`.pipe(
        Effect.map((rows) => rows.map((row) => Schema.decodeSync(codec)(row.entry))),
        Effect.orDie
      ),
      append: (entry) =>
        sql`INSERT INTO ledger_journal (entry) VALUES (${Schema.encodeSync(codec)(entry)})`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
