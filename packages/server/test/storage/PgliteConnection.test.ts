import type { Duplex } from "node:stream"
import { PgProtocol } from "@effect/sql-pg"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import * as Database from "../../src/storage/Database.ts"
import { pgliteConnection } from "../../src/storage/PgliteConnection.ts"

/** PGlite in memory, and a client on it whose connections are kept here to be cut. */
const store = Effect.gen(function*() {
  const db = yield* Database.openStore(Option.none())
  const connect = pgliteConnection(db)
  const connections: Array<Duplex> = []
  const client = yield* Layer.build(Database.layerPgliteClient(db, () => {
    const connection = connect()
    connections.push(connection)
    return connection
  }))
  return { db, connections, client }
})

describe("the in-process connection to PGlite", () => {
  it.live("answers statements, parameters and transactions as PostgreSQL's wire protocol does", () =>
    Effect.gen(function*() {
      const { client } = yield* store
      const rows = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE t (id int PRIMARY KEY, doc jsonb)`
        yield* sql.withTransaction(sql`INSERT INTO t ${sql.insert([{ id: 1, doc: JSON.stringify({ a: 1 }) }, { id: 2, doc: JSON.stringify({ a: 2 }) }])}`)
        const failed = yield* Effect.flip(sql.withTransaction(Effect.andThen(sql`INSERT INTO t (id) VALUES (3)`, sql`INSERT INTO t (id) VALUES (1)`)))
        assert.strictEqual(SqlError.isSqlError(failed) ? failed.reason._tag : String(failed), "UniqueViolation")
        return yield* sql<{ id: number; doc: { a: number } }>`SELECT id, doc FROM t WHERE id >= ${1} ORDER BY id`
      }).pipe(Effect.provide(client))
      // The failed transaction left nothing; the connection still serves.
      assert.deepStrictEqual(rows, [{ id: 1, doc: { a: 1 } }, { id: 2, doc: { a: 2 } }])
    }).pipe(Effect.scoped))

  it.live("a connection cut inside a transaction rolls it back: the next connection inherits nothing", () =>
    Effect.gen(function*() {
      const { db, connections, client } = yield* store
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE t (id int PRIMARY KEY)`
        // BEGIN outside withTransaction: the pool's one connection is left inside a transaction.
        yield* sql`BEGIN`
        yield* sql`INSERT INTO t (id) VALUES (1)`
      }).pipe(Effect.provide(client))
      assert.isTrue(db.isInTransaction())

      connections.forEach((connection) => connection.destroy())
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      assert.isFalse(db.isInTransaction())
      const after = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM t`
      }).pipe(Effect.provide(client))
      assert.deepStrictEqual(after, [{ n: 0 }])
      assert.isAbove(connections.length, 1, "the pool connected again")
    }).pipe(Effect.scoped))

  it.live("a CancelRequest is closed at once and leaves the session's transaction alone", () =>
    Effect.gen(function*() {
      const { db, client } = yield* store
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`BEGIN`
      }).pipe(Effect.provide(client))
      assert.isTrue(db.isInTransaction())

      const cancel = pgliteConnection(db)()
      const answered: Array<Buffer> = []
      cancel.on("data", (chunk: Buffer) => answered.push(chunk))
      const closed = new Promise((resolve) => cancel.once("close", resolve))
      cancel.write(PgProtocol.encodeCancelRequest({ pid: 1, secret: 1 }))
      yield* Effect.promise(() => closed)
      assert.deepStrictEqual(answered, [])
      assert.isTrue(db.isInTransaction(), "another connection's end never rolls back the session's transaction")
    }).pipe(Effect.scoped))
})
