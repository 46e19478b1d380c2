import type { Duplex } from "node:stream"
import type { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, String as Str } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { diskFolder, lockDataDir } from "./DataDirLock.ts"
import { pgliteConnection } from "./PgliteConnection.ts"
import { openPglite } from "./PgliteTemplate.ts"

/**
 * PGlite in this process on `dataDir` (in memory when none), closed with the
 * scope. A folder on disk is locked first, so a second process on it refuses
 * to start (DataDirLock.ts); the lock is dropped after PGlite has closed.
 */
export const openStore = (dataDir: Option.Option<string>) =>
  Effect.gen(function*() {
    const folder = Option.flatMap(dataDir, diskFolder)
    if (Option.isSome(folder)) yield* lockDataDir(folder.value)
    return yield* Effect.acquireRelease(
      Effect.promise(() => openPglite(Option.getOrUndefined(dataDir))),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
  })

/**
 * Rows arrive camelCase and `sql(name)` / `sql.insert` identifiers go out
 * snake_case; JSON values keep their keys as stored (policy rules and terms
 * are the owner's and the seller's own documents).
 */
const names = { transformResultNames: Str.snakeToCamel, transformQueryNames: Str.camelToSnake, transformJson: false } as const

/**
 * The `@effect/sql-pg` client on PGlite in this process, over `connect`
 * (PgliteConnection.ts; tests wrap it to cut connections): PGlite runs one
 * statement at a time, so the pool is exactly one connection.
 */
export const layerPgliteClient = (db: PGlite, connect: () => Duplex = pgliteConnection(db)) =>
  PgClient.layer({ stream: connect, username: "postgres", database: "postgres", maxConnections: 1, minConnections: 1, ...names })

/** The embedded default: PGlite in-process, reached by the same `@effect/sql-pg` client as PostgreSQL. */
export const layerPglite = (dataDir: Option.Option<string>) => Layer.unwrap(Effect.map(openStore(dataDir), layerPgliteClient))

/** A real PostgreSQL, optionally confined to one schema (tests give each run its own). */
export const layerPostgres = (url: Redacted.Redacted, options: { readonly schema?: string; readonly applicationName?: string } = {}) =>
  PgClient.layer({
    url,
    maxConnections: 16,
    ...names,
    ...(options.schema === undefined ? {} : { startupParameters: { search_path: options.schema } }),
    ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName })
  })

/** `DATABASE_URL` selects PostgreSQL; otherwise PGlite, kept in `DATA_DIR` when set. */
export const layerFromConfig: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, unknown, AppConfig> = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* AppConfig
    return Option.match(config.databaseUrl, {
      onNone: () => layerPglite(config.dataDir),
      onSome: (url) => layerPostgres(url)
    })
  })
)
