import { Context, Effect, Layer, Ref, Schema } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import { CoinMetadata } from "./CoinMetadata.ts"

/**
 * Everything that changed the ledger, in order; replaying it rebuilds the same
 * state. Only committed transactions are journaled, each with the digest and
 * status it had, which a replay must reproduce; a checkpoint names the digests
 * it made final (entries written before it did finalize all pending). A
 * journal without `AdvanceEpoch` entries stays in the genesis epoch.
 */
export const JournalEntry = Schema.Union([
  Schema.TaggedStruct("Execute", {
    txBytes: Schema.String,
    signatures: Schema.Array(Schema.String),
    atMs: Schema.Number,
    digest: Schema.optionalKey(Schema.String),
    status: Schema.optionalKey(Schema.Literals(["success", "failure"]))
  }),
  // `mint` (local mode's coins of any type); the faucet's transfers are Execute entries like any transaction. The
  // metadata the mint published for its type, as published (defaults filled), so a replay answers it whatever the
  // defaults become; journals from before it have none, as those mints gave none.
  Schema.TaggedStruct("Mint", {
    recipient: Schema.String,
    coinType: Schema.String,
    amount: Schema.String,
    atMs: Schema.Number,
    metadata: Schema.optionalKey(CoinMetadata)
  }),
  Schema.TaggedStruct("Checkpoint", { atMs: Schema.Number, digests: Schema.optionalKey(Schema.Array(Schema.String)) }),
  // `advanceEpoch`: the epoch it started (checked on replay), when, and the reference gas price it set.
  Schema.TaggedStruct("AdvanceEpoch", { epoch: Schema.String, atMs: Schema.Number, referenceGasPrice: Schema.String })
])
export type JournalEntry = typeof JournalEntry.Type

/**
 * Where LocalLedger keeps its journal: in memory by default, the SQL store
 * under `npm start`, a file under `npm run ledger` (LedgerJournalFile.ts). A
 * store that cannot be read or written is the chain being unavailable.
 */
export class LedgerJournal extends Context.Service<LedgerJournal, {
  readonly load: Effect.Effect<ReadonlyArray<JournalEntry>, Unavailable>
  append(entry: JournalEntry): Effect.Effect<void, Unavailable>
}>()("@gateway/local-ledger/LedgerJournal") {
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
