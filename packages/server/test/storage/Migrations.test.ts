import { assert, describe, it } from "@effect/vitest"
import { Config, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/storage/Database.ts"
import { layerMigrations, migrations } from "../../src/storage/Migrations.ts"
import { freshSchema } from "../support/TestServer.ts"

/** Each migration's id and how many times it is recorded as applied. */
const applied = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ migrationId: unknown; n: unknown }>`SELECT migration_id, count(*) AS n FROM effect_sql_migrations
      GROUP BY migration_id ORDER BY migration_id`
  return rows.map((r) => ({ id: Number(r.migrationId), times: Number(r.n) }))
})

const exactlyOnceEach = (rows: ReadonlyArray<{ id: number; times: number }>) => {
  // Every migration the record names, numbered 1 to n without a gap, each applied once.
  const ids = Object.keys(migrations).map((key) => Number(key.slice(0, 4)))
  assert.deepStrictEqual(ids, Array.from({ length: ids.length }, (_, i) => i + 1))
  assert.deepStrictEqual(rows.map((r) => r.id), ids)
  assert.isTrue(rows.every((r) => r.times === 1), JSON.stringify(rows))
}

describe("migrations", () => {
  it.live("replicas starting at once apply each migration exactly once, and a later start changes nothing", () =>
    Effect.gen(function*() {
      const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
      if (Option.isNone(url)) {
        // PGlite serves one connection to one process: its replicas can only start one after another.
        const store = yield* Layer.build(Database.layerPglite(Option.none()))
        const migrate = Layer.build(Layer.fresh(layerMigrations)).pipe(Effect.provide(store))
        yield* migrate
        yield* migrate
        return exactlyOnceEach(yield* applied.pipe(Effect.provide(store)))
      }
      const schema = yield* freshSchema(url.value)
      const replica = () => Layer.build(Layer.fresh(layerMigrations.pipe(Layer.provideMerge(Database.layerPostgres(url.value, { schema })))))
      const [first] = yield* Effect.all([replica(), replica(), replica()], { concurrency: "unbounded" })
      const rows = yield* applied.pipe(Effect.provide(first))
      exactlyOnceEach(rows)
      yield* replica()
      assert.deepStrictEqual(yield* applied.pipe(Effect.provide(first)), rows)
    }).pipe(Effect.scoped))
})
