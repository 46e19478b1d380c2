import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** An owner's and a seller's payment listings page newest first on (created_at, digest) by grant or by service; neither should scan the table. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX payments_grant_listing ON payments (grant_object_id, created_at DESC, digest DESC)`
  yield* sql`CREATE INDEX payments_service_listing ON payments (service_id, created_at DESC, digest DESC)`
})
