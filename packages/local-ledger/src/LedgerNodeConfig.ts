import { Config, Schema } from "effect"

/** `LEDGER_DATA_DIR` set to this keeps the journal in memory: the node forgets everything when it stops. */
export const IN_MEMORY = "memory"

/** Whole milliseconds above zero: a node run on its own has nobody to ask it for a checkpoint, so 0 would never finalize anything. */
const positiveMs = (name: string, fallback: number) => Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

/** The settings of `npm run ledger` (`main.ts`), from the environment. */
export const LedgerNodeConfig = Config.all({
  host: Config.String("LEDGER_HOST").pipe(Config.withDefault("127.0.0.1")),
  port: Config.Port("LEDGER_PORT").pipe(Config.withDefault(9000)),
  checkpointMs: positiveMs("LEDGER_CHECKPOINT_MS", 250),
  // The same name and default as the ledger `npm start` embeds (README, "Configuration").
  referenceGasPrice: positiveMs("LEDGER_REFERENCE_GAS_PRICE", 1000),
  /** The folder of the journal file, or `IN_MEMORY`. */
  dataDir: Config.String("LEDGER_DATA_DIR").pipe(Config.withDefault("./ledger-data"))
})
