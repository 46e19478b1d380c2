import { Layer, Option, Redacted, References } from "effect"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { AppConfig, type AppConfigShape, defaults } from "../packages/server/src/Config.ts"
import { layerLocalGateway } from "../packages/server/src/localMode/LocalMode.ts"
import * as Database from "../packages/server/src/storage/Database.ts"

/** The embedded defaults of `npm start`, in memory, on an ephemeral port, checkpointing every 50 ms. */
export const localConfig: AppConfigShape = {
  ...defaults,
  port: 0,
  dataDir: Option.none(),
  sessionTtlMs: 3_600_000,
  ledgerCheckpointMs: 50,
  signInPerMinute: 1000,
  // Scripts ask for many 402s from loopback, one client address.
  paymentChallengesPerMinute: 1_000_000_000
}

/**
 * The whole gateway in this process (scripts drive it over HTTP, and reach
 * its ledger as wallets do, with a `SuiGrpcClient` on `/sui`), on in-memory
 * PGlite or, when DATABASE_URL is set, on that PostgreSQL.
 */
export const localGateway = (config: AppConfigShape = localConfig) =>
  layerLocalGateway(
    process.env.DATABASE_URL === undefined
      ? Database.layerPglite(Option.none())
      : Database.layerPostgres(Redacted.make(process.env.DATABASE_URL)),
    LedgerJournal.layerMemory
  ).pipe(
    Layer.provide(AppConfig.layer(config)),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )
