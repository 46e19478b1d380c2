import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Unavailable } from "@gateway/domain/Errors"
import { Stopping } from "../http/Stopping.ts"
import { migrations } from "./Migrations.ts"

/** The ids this code knows, as the migrator records them (`0007_paid_answers` is recorded as 7). */
const knownIds: ReadonlyArray<number> = Object.keys(migrations).flatMap((key) => {
  const id = key.match(/^(\d+)_/)?.[1]
  return id === undefined ? [] : [Number(id)]
})

/**
 * Whether this replica should get traffic: it is not stopping, the store answers and every migration
 * this code knows is recorded as applied. The chain is not asked: a Sui node blip must not take every replica out
 * of a load balancer at once (the chain-backed routes answer 503 on their own meanwhile).
 */
export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<{ readonly ok: true; readonly store: "up"; readonly migrations: "done" }, Unavailable>
}>()("@gateway/server/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const down = (error: unknown) =>
        Effect.andThen(
          Effect.logWarning("readiness: store unavailable", error instanceof Error ? error.message : String(error)),
          Effect.fail(new Unavailable({ message: "The store is unavailable", reason: "store_unreachable" }))
        )
      // One read of the migrator's own table: it answering is the trivial query; a store whose schema is gone reads as down.
      const applied = sql<{ id: unknown }>`SELECT migration_id AS id FROM effect_sql_migrations`.pipe(
        Effect.timeout("2 seconds"),
        Effect.map((rows) => new Set(rows.map((row) => Number(row.id)))),
        // Any failure of the probe (an SQL error, a defect on a lost connection, the timeout) is the store being down.
        Effect.catch(down),
        Effect.catchDefect(down)
      )
      const stopping = yield* Stopping
      const inRotation = Effect.suspend(() =>
        stopping.stopping
          ? Effect.fail(new Unavailable({ message: "This replica is stopping: send new requests to another", reason: "stopping" }))
          : Effect.void
      )
      const check = Effect.andThen(inRotation, Effect.flatMap(applied, (ids) => {
        const pending = knownIds.filter((id) => !ids.has(id))
        return pending.length === 0
          ? Effect.succeed({ ok: true as const, store: "up" as const, migrations: "done" as const })
          : Effect.fail(new Unavailable({ message: `${pending.length} migration(s) not applied yet`, reason: "migrations_pending" }))
      }))
      return Readiness.of({ check })
    })
  )
}
