import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE ledger_journal (
      seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      entry TEXT NOT NULL
    )
  `
})
