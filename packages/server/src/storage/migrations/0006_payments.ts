import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Keys the replicas share, such as the one that seals 402 challenge nonces.
  yield* sql`
    CREATE TABLE gateway_keys (
      name TEXT PRIMARY KEY,
      key TEXT NOT NULL
    )
  `
  yield* sql`
    CREATE TABLE payments (
      digest TEXT PRIMARY KEY,
      nonce TEXT NOT NULL UNIQUE,
      service_id TEXT NOT NULL REFERENCES services (id),
      revision INTEGER NOT NULL,
      grant_object_id TEXT NOT NULL,
      payer TEXT NOT NULL,
      amount TEXT NOT NULL,
      status TEXT NOT NULL,
      refusal TEXT,
      upstream_status INTEGER,
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )
  `
})
