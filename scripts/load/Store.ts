import { randomBytes } from "node:crypto"
import { Console, Effect, Layer, Option, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { AppConfig, type AppConfigShape } from "../../packages/server/src/Config.ts"
import { layerLocalGateway } from "../../packages/server/src/localMode/LocalMode.ts"
import * as Database from "../../packages/server/src/storage/Database.ts"

/** The PostgreSQL the load runs against when DATABASE_URL is unset: the issue asks for PostgreSQL, not PGlite. */
export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"

export interface LoadStore {
  /** What the run is against, for its output; never carries a password. */
  readonly description: string
  readonly layer: Layer.Layer<SqlClient.SqlClient, unknown>
}

/** Host, port and database of a URL, without credentials. */
const where = (url: string) => {
  const parsed = URL.parse(url)
  return parsed === null ? "(unparsable DATABASE_URL)" : `${parsed.host}${parsed.pathname}`
}

/**
 * PostgreSQL (DATABASE_URL, or the local default) in a fresh schema that is
 * dropped once the gateway's pool has closed, so runs never see each other's
 * rows and leave nothing behind; PGlite in memory with LOAD_STORE=pglite.
 */
export const loadStore = (env: NodeJS.ProcessEnv): Effect.Effect<LoadStore, Error> => {
  const choice = env["LOAD_STORE"] ?? "postgres"
  if (choice === "pglite") {
    return Effect.succeed({ description: "PGlite in memory (LOAD_STORE=pglite)", layer: Database.layerPglite(Option.none()) })
  }
  if (choice !== "postgres") return Effect.fail(new Error(`LOAD_STORE must be postgres or pglite, not ${choice}`))
  const url = Redacted.make(env["DATABASE_URL"] ?? DEFAULT_DATABASE_URL)
  const source = env["DATABASE_URL"] === undefined ? "default URL, DATABASE_URL unset" : "DATABASE_URL"
  const schema = `load_${randomBytes(6).toString("hex")}`
  const admin = (statement: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(statement)
    }).pipe(Effect.provide(Database.layerPostgres(url)))
  const layer = Layer.unwrap(
    Effect.as(
      Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () =>
        admin(`DROP SCHEMA ${schema} CASCADE`).pipe(
          Effect.andThen(Console.log(`store: schema ${schema} dropped`)),
          Effect.catchCause((cause) => Console.error(`store: could not drop schema ${schema}`, cause))
        )),
      Database.layerPostgres(url, { schema, applicationName: schema })
    )
  )
  return Effect.succeed({
    description: `PostgreSQL at ${where(Redacted.value(url))} (${source}), fresh schema ${schema}, dropped at the end`,
    layer
  })
}

/**
 * The gateway of `npm start` in this process, as `scripts/LocalGateway.ts`
 * composes it, over the store chosen above rather than the one that file
 * picks from DATABASE_URL.
 */
export const loadGateway = (config: AppConfigShape, store: LoadStore) =>
  layerLocalGateway(store.layer, LedgerJournal.layerMemory).pipe(
    Layer.provide(AppConfig.layer(config)),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )
