import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A seller's upstream secret, sealed for its service and seller (SellerCredentials), replaces the
  // environment-variable locator any seller could name. Locators are dropped, not migrated: a seller who
  // used one submits the secret itself with an edit.
  yield* sql`ALTER TABLE service_revisions ADD COLUMN upstream_credential TEXT`
  yield* sql`ALTER TABLE service_revisions DROP COLUMN upstream_credential_env`
})
