import { assert, describe, layer } from "@effect/vitest"
import { Config, Context, Effect, Layer } from "effect"
import { CatalogChanges } from "../../src/catalog/CatalogChanges.ts"
import * as Database from "../../src/storage/Database.ts"
import { freshSchema } from "../support/TestServer.ts"

/** Two replicas' change notices on one PostgreSQL schema. */
const TwoReplicas = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.Redacted("TEST_DATABASE_URL")
    const schema = yield* freshSchema(url)
    const replica = () => Layer.fresh(CatalogChanges.layer).pipe(Layer.provide(Database.layerPostgres(url, { schema })))
    return Layer.effect(ReplicaB, Effect.map(Layer.build(replica()), (b) => Context.get(b, CatalogChanges))).pipe(
      Layer.provideMerge(replica())
    )
  })
).pipe(Layer.orDie)

class ReplicaB extends Context.Service<ReplicaB, CatalogChanges["Service"]>()("test/CatalogChangesReplicaB") {}

/** What each listener heard, in order. */
const heard = () => {
  const ids: Array<string | undefined> = []
  return { ids, listener: (id: string | undefined) => void ids.push(id) }
}

describe.runIf(process.env["TEST_DATABASE_URL"] !== undefined)("catalog change notices on PostgreSQL", () => {
  layer(TwoReplicas, { excludeTestServices: true })((it) => {
    it.effect("the replica that made a change hears it once, at once; another replica hears it once through NOTIFY", () =>
      Effect.gen(function*() {
        const a = yield* CatalogChanges
        const b = yield* ReplicaB
        const onA = heard()
        const onB = heard()
        yield* a.subscribe(onA.listener)
        yield* b.subscribe(onB.listener)
        // Both listen before anything is announced: what they heard on connecting ("anything may have changed") is not counted.
        yield* Effect.sleep("300 millis")
        onA.ids.length = 0
        onB.ids.length = 0
        yield* a.publish("svc_one")
        assert.deepStrictEqual(onA.ids, ["svc_one"], "told in-process before publish returns")
        // Its own notice comes back through PostgreSQL too; heard again, it would clear reads made after the change.
        yield* Effect.sleep("500 millis")
        assert.deepStrictEqual(onA.ids, ["svc_one"])
        assert.deepStrictEqual(onB.ids, ["svc_one"])
      }).pipe(Effect.scoped))
  })
})
