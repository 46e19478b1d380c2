import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The periodic sweep deletes by expiry and revoke-all deletes by owner; neither should scan the whole table. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX auth_challenges_expires_at ON auth_challenges (expires_at)`
  yield* sql`CREATE INDEX owner_sessions_expires_at ON owner_sessions (expires_at)`
  yield* sql`CREATE INDEX owner_sessions_address ON owner_sessions (address)`
  yield* sql`CREATE INDEX internal_hops_expires_at ON internal_hops (expires_at)`
})
