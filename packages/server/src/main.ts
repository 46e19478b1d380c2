import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "./Config.ts"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { LedgerJournalSql } from "./storage/LedgerJournalRepo.ts"
import { layerLogging } from "./observability/Logging.ts"
import { layerServer, layerServerLive, layerStore } from "./Server.ts"
import * as Database from "./storage/Database.ts"
import { layerLedgerWriterLock } from "./storage/LedgerWriterLock.ts"

/**
 * `npm start`: the whole gateway on the embedded defaults (PGlite kept in
 * ./data, LocalLedger), or on PostgreSQL when DATABASE_URL is set.
 */
const ConfigLive = Layer.effect(
  AppConfig,
  Effect.map(AppConfig.fromEnv, (config) =>
    AppConfig.of({ ...config, dataDir: Option.orElse(config.dataDir, () => Option.some("./data")) }))
)

/**
 * LocalLedger journaled in the store. On PostgreSQL, replicas share the
 * store, so only the one holding the writer lock may run it (the lock is taken
 * before the ledger replays its journal).
 */
const Ledger = Layer.unwrap(
  AppConfig.useSync((config) =>
    LocalLedger.layer(AppConfig.ledgerConfig(config)).pipe(
      Layer.provide(LedgerJournalSql),
      Layer.provide(Option.isSome(config.databaseUrl) ? layerLedgerWriterLock : Layer.empty)
    )
  )
)

/**
 * LocalLedger by default; a live network when SUI_GRPC_URL is set (AppConfig
 * has already refused a live mode without a known network, package and Registry).
 */
const Gateway = Layer.unwrap(
  AppConfig.useSync((config) =>
    Option.match(config.suiGrpcUrl, {
      onNone: () => layerServer.pipe(Layer.provide(Ledger)),
      onSome: layerServerLive
    })
  )
)

Gateway.pipe(
  Layer.provideMerge(layerStore(Database.layerFromConfig)),
  Layer.provide(ConfigLive),
  Layer.provide(layerLogging),
  Layer.launch,
  NodeRuntime.runMain
)
