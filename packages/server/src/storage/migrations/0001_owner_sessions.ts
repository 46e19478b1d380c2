import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE auth_challenges (
      nonce TEXT PRIMARY KEY,
      address TEXT NOT NULL,
      message TEXT NOT NULL,
      expires_at TIMESTAMPTZ NOT NULL,
      used_at TIMESTAMPTZ
    )
  `
  yield* sql`
    CREATE TABLE owner_sessions (
      token_hash TEXT PRIMARY KEY,
      address TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      expires_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`
    CREATE TABLE internal_hops (
      mac TEXT PRIMARY KEY,
      expires_at TIMESTAMPTZ NOT NULL
    )
  `
})
