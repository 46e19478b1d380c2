import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE policies (
      id TEXT PRIMARY KEY,
      owner_address TEXT NOT NULL,
      name TEXT NOT NULL,
      on_chain_policy_id BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      rule JSONB NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`CREATE INDEX policies_owner ON policies (owner_address, created_at)`
  yield* sql`
    CREATE TABLE profiles (
      id TEXT PRIMARY KEY,
      owner_address TEXT NOT NULL,
      name TEXT NOT NULL,
      policy_ids JSONB NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`CREATE INDEX profiles_owner ON profiles (owner_address, created_at)`
})
