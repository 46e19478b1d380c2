import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Payment sessions (issue 26): a deposit on chain for one payee, paid off chain by vouchers. One row per session
 * the gateway has accepted a voucher of: what the chain said of it (payee, asset, voucher key, deposit, expiry)
 * and what the gateway accepted since.
 *
 * - `charged` and `charged_signature`: the last voucher whose call the seller answered, what the payee may claim.
 * - `pending`: a voucher whose call is being forwarded, until `pending_until_ms`; at most one per session, taken by
 *   one compare-and-set statement, so two replicas given the same voucher make one forward.
 * - `claimed`: what the chain paid the payee so far; `claim_requested` asks the next claim round to claim it.
 * - `grant_halt`: 'paused' or 'revoked' as the chain last said of the session's grant.
 * - `state`: 'closing' once the delegate's final voucher was accepted (no voucher is accepted after it).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE payment_sessions (
      session_id TEXT PRIMARY KEY,
      grant_object_id TEXT NOT NULL REFERENCES grants (grant_object_id),
      initial_shared_version TEXT NOT NULL,
      owner TEXT NOT NULL,
      delegate TEXT NOT NULL,
      payee TEXT NOT NULL,
      coin_type TEXT NOT NULL,
      voucher_key BYTEA NOT NULL,
      deposit NUMERIC(20, 0) NOT NULL,
      expiry_ms BIGINT NOT NULL,
      close_at_ms BIGINT NOT NULL DEFAULT 0,
      charged NUMERIC(20, 0) NOT NULL DEFAULT 0,
      charged_signature BYTEA,
      calls BIGINT NOT NULL DEFAULT 0,
      pending NUMERIC(20, 0),
      pending_signature BYTEA,
      pending_until_ms BIGINT,
      claimed NUMERIC(20, 0) NOT NULL DEFAULT 0,
      claim_requested BOOLEAN NOT NULL DEFAULT false,
      grant_halt TEXT CHECK (grant_halt IN ('paused', 'revoked')),
      state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closing', 'closed')),
      final_cumulative NUMERIC(20, 0),
      final_signature BYTEA,
      returned NUMERIC(20, 0),
      close_digest TEXT,
      opened_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`CREATE INDEX payment_sessions_payee ON payment_sessions (payee, opened_at DESC)`
  yield* sql`CREATE INDEX payment_sessions_grant ON payment_sessions (grant_object_id)`
  yield* sql`CREATE INDEX payment_sessions_live ON payment_sessions (expiry_ms) WHERE state <> 'closed'`
})
