import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The sponsor's gas coins as every replica sees them: one row per coin
 * version held, so the primary key is what stops two replicas from handing
 * out one coin. A row is a build for an owner (its transaction's digest, the
 * gas budget and the budget windows it was taken from) or the leader's
 * maintenance of the pool. `reserved` rows hold until `expires_at` (ms);
 * `signed` rows (co-signed, outcome not yet recorded) hold until the coin
 * moves on chain or the transaction's epoch has passed. One reserved build
 * per owner, by a partial unique index.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sponsor_reservations (
      coin_id TEXT NOT NULL,
      coin_version TEXT NOT NULL,
      coin_digest TEXT NOT NULL,
      holder TEXT NOT NULL,
      purpose TEXT NOT NULL CHECK (purpose IN ('build', 'maintenance')),
      state TEXT NOT NULL CHECK (state IN ('reserved', 'signed')),
      digest TEXT UNIQUE,
      gas_budget BIGINT NOT NULL,
      budget_taken TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      expiration_epoch BIGINT NOT NULL,
      PRIMARY KEY (coin_id, coin_version)
    )
  `
  yield* sql`CREATE UNIQUE INDEX sponsor_reservations_one_build ON sponsor_reservations (holder) WHERE purpose = 'build' AND state = 'reserved'`
  yield* sql`CREATE INDEX sponsor_reservations_expires_at ON sponsor_reservations (expires_at) WHERE state = 'reserved'`
})
