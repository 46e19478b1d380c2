import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A challenge is a price quote: every distinct payment of it is served once, so a payment is
 * consumed by its digest (the PRIMARY KEY) and no longer by its nonce. With the nonce UNIQUE, whoever
 * paid a nonce it read from someone else's PaymentMade and presented first took that payer's call.
 * Nothing looks payments up by nonce, so no index replaces the constraint.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // PostgreSQL's name for 0006's inline UNIQUE; named exactly, so a store without it fails here rather than keeping it.
  yield* sql`ALTER TABLE payments DROP CONSTRAINT payments_nonce_key`
})
