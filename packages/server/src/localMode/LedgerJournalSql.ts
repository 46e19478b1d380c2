import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { JournalEntry, LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { Unavailable } from "@gateway/domain/Errors"

const codec = Schema.fromJsonString(JournalEntry)

/**
 * The journal lives in the store, so a store that cannot answer (or a row that
 * does not decode) makes the chain UNAVAILABLE; the cause is logged, never returned.
 */
const chainUnavailable = <A, E extends { readonly message: string }, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Unavailable, R> =>
  self.pipe(
    Effect.tapError((error) => Effect.logWarning("ledger journal unavailable", error.message)),
    Effect.mapError(() => new Unavailable({ message: "The chain is unavailable", reason: "ledger_journal_unreachable" }))
  )

/**
 * LocalLedger's journal in the project's SQL store, so `npm start` keeps the
 * local chain across restarts. The ledger journals before it commits, so a
 * journal that cannot be written leaves the ledger unchanged.
 */
export const LedgerJournalSql = Layer.effect(
  LedgerJournal,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return LedgerJournal.of({
      load: sql<{ entry: string }>`SELECT entry FROM ledger_journal ORDER BY seq`.pipe(
        Effect.flatMap((rows) => Effect.forEach(rows, (row) => Schema.decodeUnknownEffect(codec)(row.entry))),
        chainUnavailable,
        Effect.withSpan("LedgerJournalSql.load")
      ),
      append: (entry) =>
        Schema.encodeEffect(codec)(entry).pipe(
          Effect.flatMap((encoded) => sql`INSERT INTO ledger_journal (entry) VALUES (${encoded})`),
          Effect.asVoid,
          chainUnavailable,
          Effect.withSpan("LedgerJournalSql.append")
        )
    })
  })
)
