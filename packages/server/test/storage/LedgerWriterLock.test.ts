import { assert, describe, it } from "@effect/vitest"
import { Config, Effect, Exit, Fiber, Layer, Option } from "effect"
import * as Database from "../../src/storage/Database.ts"
import { layerLedgerWriterLock } from "../../src/storage/LedgerWriterLock.ts"
import { freshSchema } from "../support/TestServer.ts"

// PGlite serves one process, so there is no second replica to refuse: this runs on PostgreSQL only.
describe.runIf(process.env["TEST_DATABASE_URL"] !== undefined)("one writer of the local ledger", () => {
  it.live("a second local-mode replica on one PostgreSQL schema refuses to start; another schema, or the first one gone, lets it", () =>
    Effect.gen(function*() {
      const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
      if (Option.isNone(url)) return yield* Effect.die(new Error("TEST_DATABASE_URL is unset"))
      const schema = yield* freshSchema(url.value)
      const replica = (on: string) => Layer.build(Layer.fresh(layerLedgerWriterLock.pipe(Layer.provide(Database.layerPostgres(url.value, { schema: on })))))

      const first = yield* Effect.forkChild(Effect.scoped(Effect.andThen(replica(schema), Effect.never)))
      yield* Effect.sleep("300 millis")
      const second = yield* Effect.exit(Effect.scoped(replica(schema)))
      assert.isTrue(Exit.isFailure(second))
      assert.include(String(Exit.isFailure(second) ? second.cause : ""), "another gateway replica already runs the local ledger on this database")

      // The lock is per schema: a gateway on another schema of the same server has its own ledger.
      yield* Effect.scoped(replica(yield* freshSchema(url.value)))

      // The holder's session ends with it, and the lock with the session.
      yield* Fiber.interrupt(first)
      yield* Effect.scoped(replica(schema))
    }).pipe(Effect.scoped))
})
