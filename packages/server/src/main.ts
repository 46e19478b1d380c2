import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "./Config.ts"
import { LedgerJournalSql } from "./localMode/LedgerJournalSql.ts"
import { layerLocalGateway } from "./localMode/LocalMode.ts"
import { layerLogging } from "./observability/Logging.ts"
import { layerServerLive, layerStore } from "./Server.ts"
import * as Database from "./storage/Database.ts"
import { layerLedgerWriterLock } from "./storage/LedgerWriterLock.ts"

/** `npm start`: the whole gateway on the embedded defaults (PGlite kept in ./data, LocalLedger), or on PostgreSQL when DATABASE_URL is set. */
const ConfigLive = Layer.effect(AppConfig, Effect.map(AppConfig.fromEnv, AppConfig.of))

/**
 * LocalLedger journaled in the store by default; on PostgreSQL, replicas share
 * the store, so only the one holding the writer lock may run it (the lock is
 * taken before the journal is read). A live network when SUI_GRPC_URL is set
 * (AppConfig has already refused a live mode without a known network, package
 * and Registry).
 */
const Gateway = Layer.unwrap(
  AppConfig.useSync((config) =>
    Option.match(config.suiGrpcUrl, {
      onNone: () =>
        layerLocalGateway(
          Database.layerFromConfig,
          Option.isSome(config.databaseUrl) ? LedgerJournalSql.pipe(Layer.provide(layerLedgerWriterLock)) : LedgerJournalSql
        ),
      onSome: (url) => layerServerLive(url).pipe(Layer.provideMerge(layerStore(Database.layerFromConfig)))
    })
  )
)

/**
 * Start-up leaves garbage V8 keeps until the heap is under pressure, which an
 * idle gateway never is: PGlite's cluster template and WebAssembly bytes, the
 * module's evaluation. `npm start` passes --expose-gc, so one full collection
 * once the server listens hands ~50–100 MiB back (docs/performance.md, "Memory").
 */
const collectStartupGarbage = Effect.sync(() => globalThis.gc?.())

/**
 * One Info line once the gateway has stopped (SIGTERM, SIGINT: the program's
 * scope closing). Built before the gateway, so its finalizer runs after the
 * gateway's own, and inside the logging layer, so the line is still written.
 */
const ShutdownLine = Layer.effectDiscard(Effect.addFinalizer(() => Effect.logInfo("gateway stopped")))

Gateway.pipe(
  Layer.provide(ShutdownLine),
  Layer.tap(() => collectStartupGarbage),
  Layer.provide(ConfigLive),
  Layer.provide(layerLogging),
  Layer.launch,
  NodeRuntime.runMain
)
