import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Sign-first payments (issue 23): the payer signs, the gateway forwards, and executes the transaction only after
 * the seller answered. A sign-first payment is a row of `payments` like any other (its digest is the signed
 * transaction's), so the owner's and seller's listings show it; it also keeps what settling and crash recovery
 * need: the exact bytes and signatures (the payer's, then the sponsor's once co-signed), and why settling failed.
 *
 * - At most one sign-first payment of a challenge is unsettled or settled: the nonce is consumed per payment.
 * - `payment_holds`: the owned objects (and, for transfers from an address balance, the payer) an unsettled
 *   payment takes; a second payment that would take one overlaps and is refused before anything is forwarded.
 * - `sign_first_bans`: a payer whose own settlement failed pays upfront only, until `until`.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE payments
      ADD COLUMN flow TEXT NOT NULL DEFAULT 'upfront' CHECK (flow IN ('upfront', 'sign_first')),
      ADD COLUMN tx_bytes BYTEA,
      ADD COLUMN signatures JSONB,
      ADD COLUMN sponsored BOOLEAN NOT NULL DEFAULT false,
      ADD COLUMN expires_epoch TEXT,
      ADD COLUMN settle_error TEXT
  `
  yield* sql`
    CREATE UNIQUE INDEX payments_sign_first_nonce ON payments (nonce)
      WHERE flow = 'sign_first' AND status IN ('forwarding', 'settling', 'settled')
  `
  yield* sql`CREATE INDEX payments_unsettled ON payments (updated_at) WHERE status IN ('forwarding', 'settling') AND flow = 'sign_first'`
  yield* sql`
    CREATE TABLE payment_holds (
      hold TEXT PRIMARY KEY,
      digest TEXT NOT NULL REFERENCES payments (digest)
    )
  `
  yield* sql`CREATE INDEX payment_holds_by_digest ON payment_holds (digest)`
  yield* sql`
    CREATE TABLE sign_first_bans (
      payer TEXT PRIMARY KEY,
      until TIMESTAMPTZ NOT NULL,
      reason TEXT NOT NULL
    )
  `
})
