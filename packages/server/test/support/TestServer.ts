import { randomBytes } from "node:crypto"
import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"
import { Config, Context, Effect, Layer, Option, Redacted, References } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { AppConfig, type AppConfigShape, defaults } from "../../src/Config.ts"
import { layerLocalGateway } from "../../src/localMode/LocalMode.ts"
import * as Database from "../../src/storage/Database.ts"
import { pgliteConnection } from "../../src/storage/PgliteConnection.ts"
import { openPglite } from "../../src/storage/PgliteTemplate.ts"

export const INTERNAL_SECRET = "test-internal-hop-secret"

/**
 * The defaults, on an ephemeral port, checkpointing only when a test asks, and with room for many sign-ins
 * and refused payments (every test signs in and pays from 127.0.0.1); `127.0.0.1:9`, the discard port tests register services at, is an allowed upstream.
 */
export const testConfig: AppConfigShape = {
  ...defaults,
  port: 0,
  dataDir: Option.none(),
  internalHopSecret: Option.some(Redacted.make(INTERNAL_SECRET)),
  sessionTtlMs: 60 * 60 * 1000,
  ledgerCheckpointMs: 0,
  signInPerMinute: 1000,
  signInChallengesPerMinute: 1000,
  paymentChallengesPerMinute: 100_000,
  paymentFailuresPerMinute: 100_000,
  upstreamAllowHosts: ["127.0.0.1:9"]
}

/** A new schema of that PostgreSQL for the scope's lifetime, dropped with everything in it afterwards. */
export const freshSchema = (url: Redacted.Redacted) =>
  Effect.gen(function*() {
    const schema = `test_${randomBytes(8).toString("hex")}`
    const admin = (statement: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(Database.layerPostgres(url)))
    yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => admin(`DROP SCHEMA ${schema} CASCADE`).pipe(Effect.ignore))
    return schema
  })

/**
 * PGlite clusters this worker's test stores are done with, emptied for the next one. Opening a cluster, even
 * from the template, costs about a second of CPU, most of a test server's start; emptying one costs milliseconds.
 * A worker keeps its module graph across files (`isolate: false`), so this outlives a file.
 */
const idlePglite: Array<PGlite> = []

/**
 * Empties a cluster to what a fresh one holds: no transaction left open by a cut connection, no session state
 * (prepared statements, advisory locks, settings), and an empty public schema, so the migrations run again.
 */
const empty = async (db: PGlite) => {
  await db.exec("ROLLBACK")
  await db.exec("DISCARD ALL")
  await db.exec("DROP SCHEMA public CASCADE")
  await db.exec("CREATE SCHEMA public")
}

/** A fresh PGlite cluster (a pooled one, emptied), for one test store's lifetime. */
const pooledPglite = Effect.gen(function*() {
  const db = yield* Effect.acquireRelease(
    Effect.promise(async () => idlePglite.pop() ?? openPglite(undefined)),
    (db) =>
      Effect.promise(() =>
        empty(db).then(
          () => void idlePglite.push(db),
          // One that cannot be emptied is never handed out again.
          () => db.close()
        )
      ).pipe(Effect.ignore)
  )
  return Database.layerPgliteClient(db)
})

/**
 * The store a test server runs on: an empty PGlite cluster in memory, or, when
 * TEST_DATABASE_URL is set, a fresh schema of that PostgreSQL that is dropped
 * afterwards, so concurrent runs never see each other's rows.
 */
export const TestStore: Layer.Layer<SqlClient.SqlClient> = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
    if (Option.isNone(url)) return yield* pooledPglite
    return Database.layerPostgres(url.value, { schema: yield* freshSchema(url.value) })
  })
).pipe(Layer.orDie)

/** Takes the test store down and brings it back, to prove what callers see meanwhile. */
export class StoreSwitch extends Context.Service<StoreSwitch, {
  readonly down: Effect.Effect<void>
  readonly up: Effect.Effect<void>
  /** Cuts every connection the server holds (PostgreSQL: pg_terminate_backend), leaving the store up. */
  readonly cut: Effect.Effect<void>
}>()("@gateway/server/test/StoreSwitch") {}

/** A connection that fails as a refused connect does: at once, before any byte is answered. */
const refused = () => {
  const connection = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      callback()
    }
  })
  process.nextTick(() => connection.destroy(Object.assign(new Error("connect ECONNREFUSED (the test store is down)"), { code: "ECONNREFUSED" })))
  return connection
}

/**
 * A test store that can be switched off: PGlite whose connections are cut
 * and new ones refused, or a PostgreSQL schema renamed away (every query fails).
 */
export const SwitchableStore: Layer.Layer<SqlClient.SqlClient | StoreSwitch> = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
    if (Option.isNone(url)) {
      const db = yield* Database.openStore(Option.none())
      const connect = pgliteConnection(db)
      const open = new Set<Duplex>()
      let up = true
      const stream = () => {
        if (!up) return refused()
        const connection = connect()
        open.add(connection)
        connection.once("close", () => open.delete(connection))
        return connection
      }
      const cutAll = Effect.sync(() => open.forEach((connection) => connection.destroy()))
      return Layer.merge(
        Database.layerPgliteClient(db, stream),
        Layer.succeed(StoreSwitch, StoreSwitch.of({
          down: Effect.andThen(Effect.sync(() => {
            up = false
          }), cutAll),
          up: Effect.sync(() => {
            up = true
          }),
          cut: cutAll
        }))
      )
    }
    const schema = `test_${randomBytes(8).toString("hex")}`
    const admin = (statement: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(Database.layerPostgres(url.value)), Effect.orDie)
    yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () =>
      admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).pipe(Effect.andThen(admin(`DROP SCHEMA IF EXISTS ${schema}_off CASCADE`)), Effect.ignore))
    return Layer.merge(
      Database.layerPostgres(url.value, { schema, applicationName: schema }),
      Layer.succeed(StoreSwitch, StoreSwitch.of({
        down: admin(`ALTER SCHEMA ${schema} RENAME TO ${schema}_off`),
        up: admin(`ALTER SCHEMA ${schema}_off RENAME TO ${schema}`),
        cut: admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${schema}'`)
      }))
    )
  })
).pipe(Layer.orDie)

/** Where the running test server listens. */
export class BaseUrl extends Context.Service<BaseUrl, string>()("@gateway/server/test/BaseUrl") {}

/**
 * A real gateway on an ephemeral port, built from the same `layerServer` as
 * `npm start` (its LocalLedger's gRPC-web front at `/sui`, its faucet at
 * `/v2/gas`), exposing the LocalLedger itself (for checkpoints, faults and
 * test coins) and its store to the test.
 */
export const layerTestServer = (
  overrides: Partial<AppConfigShape> = {},
  store = TestStore,
  logging: Layer.Layer<never> | undefined = undefined
) => {
  const config = { ...testConfig, ...overrides }
  return Layer.effect(
    BaseUrl,
    HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))
  ).pipe(
    Layer.provideMerge(layerLocalGateway(store, LedgerJournal.layerMemory)),
    Layer.provide(AppConfig.layer(config)),
    Layer.provide(logging ?? Layer.succeed(References.MinimumLogLevel, "Error")),
    Layer.orDie
  )
}
