import { assert, describe, it, layer } from "@effect/vitest"
import { Config, Effect, Layer, Option, Schedule } from "effect"
import { Migrator } from "effect/sql"
import { FetchLayer } from "@gateway/client"
import * as Database from "../../src/storage/Database.ts"
import { layerMigrations, migrations } from "../../src/storage/Migrations.ts"
import { Readiness } from "../../src/storage/Readiness.ts"
import { BaseUrl, freshSchema, layerTestServer, StoreSwitch, SwitchableStore } from "../support/TestServer.ts"

/**
 * The probes an orchestrator and a load balancer read, through a real started server: `/health/live`
 * asks nothing, `/health/ready` asks the store and its migrations (never the chain; see DeadChain.test.ts).
 */

const LIVE = { ok: true }
const READY = { ok: true, store: "up", migrations: "done" }
const STORE_DOWN = { ok: false, code: "UNAVAILABLE", message: "The store is unavailable", reason: "store_unreachable" }

const get = (url: string) =>
  Effect.promise(() =>
    fetch(url, { signal: AbortSignal.timeout(5_000) }).then(async (r) => ({ status: r.status, body: await r.json() as unknown }))
  )

const Env = Layer.mergeAll(layerTestServer({}, SwitchableStore).pipe(Layer.provideMerge(SwitchableStore)), FetchLayer)

describe("health probes", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("live and ready are 200 on a healthy gateway; /health is unchanged", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        assert.deepStrictEqual(yield* get(`${baseUrl}/health/live`), { status: 200, body: LIVE })
        assert.deepStrictEqual(yield* get(`${baseUrl}/health/ready`), { status: 200, body: READY })
        const health = yield* get(`${baseUrl}/health`)
        assert.strictEqual(health.status, 200)
        assert.deepInclude(health.body, { ok: true, store: "up", chain: "up" })
      }))

    it.effect("the store down: ready is 503 store_unreachable, live stays 200; ready again once the store is back", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const store = yield* StoreSwitch
        yield* store.down
        const ready = yield* get(`${baseUrl}/health/ready`)
        const live = yield* get(`${baseUrl}/health/live`)
        yield* store.up
        assert.deepStrictEqual(ready, { status: 503, body: STORE_DOWN })
        assert.deepStrictEqual(live, { status: 200, body: LIVE })
        // The server reconnects on its own: ready again within two seconds.
        const back = yield* get(`${baseUrl}/health/ready`).pipe(
          Effect.filterOrFail((a) => a.status === 200, (a) => a),
          Effect.retry({ schedule: Schedule.spaced("25 millis"), times: 80 }),
          Effect.orDie
        )
        assert.deepStrictEqual(back, { status: 200, body: READY })
        // Brought up once only: on PostgreSQL a second `up` finds no schema to rename back.
      }).pipe(Effect.onError(() => StoreSwitch.use((s) => s.up))))
  })
})

const Store = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
    if (Option.isNone(url)) return Database.layerPglite(Option.none())
    return Database.layerPostgres(url.value, { schema: yield* freshSchema(url.value) })
  })
)

describe("readiness and migrations", () => {
  it.effect("a store an older gateway left (a migration this build knows not applied) is not ready: migrations_pending; ready once migrated", () =>
    Effect.gen(function*() {
      const store = yield* Layer.build(Store)
      const older = Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).slice(0, -1)))
      yield* Migrator.make({})({ loader: older }).pipe(Effect.provide(store))
      const readiness = yield* Readiness.use((r) => Effect.succeed(r)).pipe(Effect.provide(Readiness.layer), Effect.provide(store))
      const pending = yield* Effect.flip(readiness.check)
      assert.deepInclude(pending, { code: "UNAVAILABLE", reason: "migrations_pending" })
      yield* Layer.build(Layer.fresh(layerMigrations)).pipe(Effect.provide(store))
      assert.deepStrictEqual(yield* readiness.check, { ok: true, store: "up", migrations: "done" })
    }).pipe(Effect.scoped))
})
