import { NodeRuntime } from "@effect/platform-node"
import { Cause, Config, Effect, Exit, Layer, Option, Result, Runtime } from "effect"
import { AppConfig, type AppConfigShape, type ConfigProblem, configProblems } from "./Config.ts"
import { LedgerJournalSql } from "./localMode/LedgerJournalSql.ts"
import { layerLocalGateway } from "./localMode/LocalMode.ts"
import { layerLogging, logLevelConfig } from "./observability/Logging.ts"
import { layerTracing } from "./observability/Tracing.ts"
import { Stopping } from "./http/Stopping.ts"
import { layerServerLive, layerStore } from "./Server.ts"
import * as Database from "./storage/Database.ts"
import { layerLedgerWriterLock } from "./storage/LedgerWriterLock.ts"

/**
 * Every configuration problem at once (LOG_LEVEL's too), before the store is
 * opened or anything written: one JSON line at Error per problem on stdout,
 * then one short summary on stderr, and exit 1. The messages never quote a
 * secret (AppConfig leaves them out).
 */
const reportAndExit = (problems: ReadonlyArray<ConfigProblem>) =>
  Effect.callback<never>(() => {
    const timestamp = new Date().toISOString()
    const lines = problems.map((problem) =>
      JSON.stringify({ message: problem.message, level: "ERROR", timestamp, variable: problem.variable, annotations: { variable: problem.variable } })
    )
    const summary = `${problems.length} configuration problem${problems.length === 1 ? "" : "s"}: ${
      problems.map((problem) => problem.variable).join(", ")
    }; see README "Configuration"`
    process.stdout.write(`${lines.join("\n")}\n`, () => process.stderr.write(`${summary}\n`, () => process.exit(1)))
  })

const attempt = <A>(config: Config.Config<A>) => Effect.result(Effect.gen(function*() { return yield* config }))

const readConfig = Effect.gen(function*() {
  const config = yield* attempt(AppConfig.fromEnv)
  const level = yield* attempt(logLevelConfig)
  const problems = [
    ...(Result.isFailure(level) ? [{ variable: "LOG_LEVEL", message: level.failure.cause.message }] : []),
    ...(Result.isFailure(config) ? configProblems(config.failure) : [])
  ]
  return Result.isSuccess(config) && problems.length === 0 ? config.success : yield* reportAndExit(problems)
})

/** `npm start`: the whole gateway on the embedded defaults (PGlite kept in ./data, LocalLedger), or on PostgreSQL when DATABASE_URL is set. */
const ConfigLive = (config: AppConfigShape) => AppConfig.layer(config)

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
 * a second after the server listens hands ~50–100 MiB back (docs/performance.md,
 * "Memory"). Not at once: the collection stops the process for ~75 ms, which the
 * first requests (a readiness probe, a waiting client) would wait out.
 */
const collectStartupGarbage = Effect.sync(() => {
  setTimeout(() => globalThis.gc?.(), 1000).unref()
})

/**
 * One Info line once the gateway has stopped (SIGTERM, SIGINT: the program's
 * scope closing). Built before the gateway, so its finalizer runs after the
 * gateway's own, and inside the logging layer, so the line is still written.
 */
const ShutdownLine = Layer.effectDiscard(Effect.addFinalizer(() => Effect.logInfo("gateway stopped")))

/**
 * A stop the operator asked for (SIGTERM, SIGINT) that drained cleanly exits 0, as process managers and
 * orchestrators expect of a graceful stop; a failure keeps its code.
 */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/**
 * The first thing a stop does (built after the gateway, so its finalizer runs before the server's): readiness
 * answers 503 while requests are still served, for SHUTDOWN_DELAY_MS; then the server stops accepting and drains.
 */
const leaveRotation = (stopping: { stopping: boolean }, delayMs: number) =>
  Layer.effectDiscard(Effect.addFinalizer(() =>
    Effect.sync(() => {
      stopping.stopping = true
    }).pipe(Effect.andThen(Effect.logInfo("stopping: /health/ready answers 503 while requests are still served")), Effect.andThen(Effect.sleep(delayMs)))
  ))

const gatewayUntilStopped = (config: AppConfigShape) => {
  const stopping = { stopping: false }
  return leaveRotation(stopping, config.shutdownDelayMs).pipe(
    Layer.provideMerge(Gateway.pipe(Layer.provide(Layer.succeed(Stopping, stopping))))
  )
}

readConfig.pipe(
  Effect.flatMap((config) =>
    gatewayUntilStopped(config).pipe(
      Layer.provide(ShutdownLine),
      Layer.tap(() => collectStartupGarbage),
      Layer.provide(ConfigLive(config)),
      Layer.provide(layerTracing),
      Layer.provide(layerLogging),
      Layer.launch
    )
  ),
  NodeRuntime.runMain({ teardown })
)
