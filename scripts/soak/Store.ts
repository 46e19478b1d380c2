import { randomBytes } from "node:crypto"
import { Console, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../packages/server/src/storage/Database.ts"
import { DEFAULT_DATABASE_URL } from "../load/Store.ts"

/**
 * A fresh schema of the PostgreSQL at DATABASE_URL (or the local default) for the scope's lifetime, dropped
 * at its end: the URL the replicas get (its `options` set `search_path`, so each replica migrates and works
 * there; migrations run under an advisory lock, so three starting together is fine), and a layer for the
 * auditor's own reads of the same schema.
 */
export const soakStore = Effect.gen(function*() {
  const url = process.env["DATABASE_URL"] ?? DEFAULT_DATABASE_URL
  const schema = `soak_${randomBytes(6).toString("hex")}`
  const admin = (statement: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(statement)
    }).pipe(Effect.provide(Database.layerPostgres(Redacted.make(url))))
  yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () =>
    admin(`DROP SCHEMA ${schema} CASCADE`).pipe(
      Effect.andThen(Console.log(`store: schema ${schema} dropped`)),
      Effect.catchCause((cause) => Console.error(`store: could not drop schema ${schema}`, cause))
    ))
  const confined = new URL(url)
  confined.searchParams.set("options", `-c search_path=${schema}`)
  const parsed = new URL(url)
  return {
    schema,
    replicaUrl: confined.href,
    description: `PostgreSQL at ${parsed.host}${parsed.pathname}, fresh schema ${schema}, dropped at the end`,
    layer: Database.layerPostgres(Redacted.make(url), { schema, applicationName: `${schema}_audit` })
  }
})
