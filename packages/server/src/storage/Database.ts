import type { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, String as Str } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { openPglite } from "./PgliteTemplate.ts"

/** A pglite-socket server for `db` on a free loopback port, stopped with the scope, and that port. */
export const serveOnLoopback = (db: PGlite) =>
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0 })
        await server.start()
        return server
      }),
      (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    return { server, port: Number(server.getServerConn().split(":")[1]) }
  })

/** PGlite in this process, and a pglite-socket server for it on a loopback port. */
export const servePglite = (dataDir: Option.Option<string>) =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => openPglite(Option.getOrUndefined(dataDir))),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    return { db, ...yield* serveOnLoopback(db) }
  })

/**
 * Rows arrive camelCase and `sql(name)` / `sql.insert` identifiers go out
 * snake_case; JSON values keep their keys as stored (policy rules and terms
 * are the owner's and the seller's own documents).
 */
const names = { transformResultNames: Str.snakeToCamel, transformQueryNames: Str.camelToSnake, transformJson: false } as const

/** The `@effect/sql-pg` client for a pglite-socket: the socket serves one connection, so the pool is exactly one. */
export const layerPgliteClient = (port: number) =>
  PgClient.layer({ host: "127.0.0.1", port, username: "postgres", database: "postgres", maxConnections: 1, minConnections: 1, ...names })

/**
 * The embedded default: PGlite in-process, served on loopback by
 * pglite-socket so the same `@effect/sql-pg` client talks to it.
 */
export const layerPglite = (dataDir: Option.Option<string>) =>
  Layer.unwrap(Effect.map(servePglite(dataDir), ({ port }) => layerPgliteClient(port)))

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
