import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE payment_challenges (
      nonce TEXT PRIMARY KEY,
      service_id TEXT NOT NULL REFERENCES services (id),
      amount TEXT NOT NULL,
      asset TEXT NOT NULL,
      pay_to TEXT NOT NULL,
      expires_at TIMESTAMPTZ NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`
    CREATE TABLE payments (
      digest TEXT PRIMARY KEY,
      nonce TEXT NOT NULL UNIQUE REFERENCES payment_challenges (nonce),
      service_id TEXT NOT NULL,
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
