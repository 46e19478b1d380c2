import { Context, Effect, Layer, Ref, Schema } from "effect"

/** Everything that changed the ledger, in order; replaying it rebuilds the same state. */
export const JournalEntry = Schema.Union([
  Schema.TaggedStruct("Execute", { txBytes: Schema.String, signatures: Schema.Array(Schema.String), atMs: Schema.Number }),
  Schema.TaggedStruct("Mint", { recipient: Schema.String, coinType: Schema.String, amount: Schema.String, atMs: Schema.Number }),
  Schema.TaggedStruct("Checkpoint", { atMs: Schema.Number })
])
export type JournalEntry = typeof JournalEntry.Type

/** Where LocalLedger keeps its journal: in memory by default, the SQL store under `npm start`. */
export class LedgerJournal extends Context.Service<LedgerJournal, {
  readonly load: Effect.Effect<ReadonlyArray<JournalEntry>>
  append(entry: JournalEntry): Effect.Effect<void>
}>()("@gateway/chain/LedgerJournal") {
  static readonly layerMemory = Layer.effect(
    LedgerJournal,
    Effect.gen(function*() {
      const entries = yield* Ref.make<ReadonlyArray<JournalEntry>>([])
      return LedgerJournal.of({
        load: Ref.get(entries),
        append: (entry) => Ref.update(entries, (all) => [...all, entry])
      })
    })
  )
}
