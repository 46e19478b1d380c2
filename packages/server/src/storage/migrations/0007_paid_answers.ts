import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The seller's answer to a paid call, kept so the payer can fetch it again (a dropped connection,
  // a lost response) with the same credential and a valid proof, within the retention window.
  yield* sql`
    ALTER TABLE payments
      ADD COLUMN answer_content_type TEXT,
      ADD COLUMN answer_body BYTEA,
      ADD COLUMN answered_at TIMESTAMPTZ
  `
})
