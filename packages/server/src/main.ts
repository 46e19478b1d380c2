import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "./Config.ts"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { LedgerJournalSql } from "./repositories/LedgerJournalRepo.ts"
import { layerLogging } from "./observability/Logging.ts"
import { layerServer, layerServerLive, layerStore } from "./Server.ts"
import * as Database from "./storage/Database.ts"

/**
 * `npm start`: the whole gateway on the embedded defaults (PGlite kept in
 * ./data, LocalLedger), or on PostgreSQL when DATABASE_URL is set.
 */
const ConfigLive = Layer.effect(
  AppConfig,
  Effect.map(AppConfig.fromEnv, (config) =>
    AppConfig.of({ ...config, dataDir: Option.orElse(config.dataDir, () => Option.some("./data")) }))
)

const Ledger = Layer.unwrap(AppConfig.useSync((config) => LocalLedger.layer(AppConfig.ledgerConfig(config))))

/**
 * LocalLedger (journaled in the store) by default; a live network when
 * SUI_RPC_URL is set (AppConfig has already refused a live mode without a
 * known network and an explicit package).
 */
const Gateway = Layer.unwrap(
  AppConfig.useSync((config) =>
    Option.match(config.suiRpcUrl, {
      onNone: () => layerServer.pipe(Layer.provide(Ledger), Layer.provide(LedgerJournalSql)),
      onSome: (url) =>
        layerServerLive({ url, network: config.network, packageId: config.spendAccountPackage })
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
