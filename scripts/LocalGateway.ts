import { Layer, Option, Redacted, References } from "effect"
import { LedgerJournal } from "@gateway/chain/local/LedgerJournal"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { AppConfig, type AppConfigShape, LOCAL_PACKAGE_ID } from "../packages/server/src/Config.ts"
import { layerServer, layerStore } from "../packages/server/src/Server.ts"
import * as Database from "../packages/server/src/storage/Database.ts"

/** The embedded defaults of `npm start`, in memory, on an ephemeral port, checkpointing every 50 ms. */
export const localConfig: AppConfigShape = {
  host: "127.0.0.1",
  port: 0,
  publicUrl: Option.none(),
  databaseUrl: Option.none(),
  dataDir: Option.none(),
  internalHopSecret: Option.none(),
  internalHopWindowMs: 60_000,
  sessionTtlMs: 3_600_000,
  challengeTtlMs: 300_000,
  network: "localnet",
  pendingGrantTtlMs: 86_400_000,
  spendAccountPackage: LOCAL_PACKAGE_ID,
  ledgerCheckpointMs: 50,
  supportedAssets: [SUI_COIN_TYPE],
  paymentChallengeSeconds: 300,
  suiRpcUrl: Option.none(),
  signInPerMinute: 1000
}

/**
 * The whole gateway in this process (scripts drive it over HTTP and sign with
 * the in-process ledger), on in-memory PGlite or, when DATABASE_URL is set,
 * on that PostgreSQL.
 */
export const localGateway = (config: AppConfigShape = localConfig) =>
  layerServer.pipe(
    Layer.provideMerge(LocalLedger.layer(AppConfig.ledgerConfig(config))),
    Layer.provide(LedgerJournal.layerMemory),
    Layer.provideMerge(layerStore(
      process.env.DATABASE_URL === undefined
        ? Database.layerPglite(Option.none())
        : Database.layerPostgres(Redacted.make(process.env.DATABASE_URL))
    )),
    Layer.provide(AppConfig.layer(config)),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )
