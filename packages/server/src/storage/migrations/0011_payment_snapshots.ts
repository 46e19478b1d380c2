import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A payment carries what its listings show, as it was when the payment was claimed: the paid
 * revision's name, asset and recipient, and the paying grant's id (null for a grant this gateway has
 * not bound to its object), so the listings read `payments` alone. Existing rows are filled once from
 * the tables the listings used to join; the asset is the grant's coin type when the grant is ours, as
 * the listings showed it. The owner's listing still pages by grant object (0010's index).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE payments
      ADD COLUMN service_name TEXT,
      ADD COLUMN asset TEXT,
      ADD COLUMN recipient TEXT,
      ADD COLUMN grant_id TEXT
  `
  yield* sql`
    UPDATE payments p SET service_name = r.terms::jsonb ->> 'name', asset = r.terms::jsonb ->> 'asset',
      recipient = r.terms::jsonb ->> 'payTo'
    FROM service_revisions r WHERE r.service_id = p.service_id AND r.revision = p.revision
  `
  yield* sql`
    UPDATE payments p SET asset = g.coin_type, grant_id = g.id
    FROM grants g WHERE g.grant_object_id = p.grant_object_id
  `
  yield* sql`
    ALTER TABLE payments
      ALTER COLUMN service_name SET NOT NULL,
      ALTER COLUMN asset SET NOT NULL,
      ALTER COLUMN recipient SET NOT NULL
  `
})
