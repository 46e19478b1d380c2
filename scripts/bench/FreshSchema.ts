import { randomBytes } from "node:crypto"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../packages/server/src/storage/Database.ts"

/** The PostgreSQL the bench's gateway runs on when DATABASE_URL is unset (the same default as `npm run load`). */
export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"

/**
 * A new schema of the PostgreSQL at `url` for the scope's lifetime, dropped
 * with everything in it afterwards, and the URL that confines a process to
 * it: its `options` start-up parameter sets `search_path`, so a gateway given
 * that URL as DATABASE_URL migrates and works there and sees no other run's rows.
 */
export const freshSchemaUrl = (url: string) =>
  Effect.gen(function*() {
    const schema = `bench_${randomBytes(6).toString("hex")}`
    const admin = (statement: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(Database.layerPostgres(Redacted.make(url))))
    yield* Effect.acquireRelease(admin(`CREATE SCHEMA ${schema}`), () => admin(`DROP SCHEMA ${schema} CASCADE`).pipe(Effect.ignore))
    const confined = new URL(url)
    confined.searchParams.set("options", `-c search_path=${schema}`)
    return confined.href
  })
