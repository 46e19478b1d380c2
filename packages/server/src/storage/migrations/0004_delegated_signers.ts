import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE delegated_signers (
      id TEXT PRIMARY KEY,
      seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      owner_address TEXT NOT NULL,
      agent_address TEXT NOT NULL,
      name TEXT NOT NULL,
      profile_ids JSONB NOT NULL,
      policy_ids JSONB NOT NULL,
      on_chain_policy_ids JSONB NOT NULL,
      policy_rules JSONB NOT NULL,
      idempotency_key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      create_response TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL,
      UNIQUE (owner_address, idempotency_key)
    )
  `
  yield* sql`CREATE INDEX delegated_signers_owner ON delegated_signers (owner_address, seq DESC)`
  yield* sql`
    CREATE TABLE grants (
      id TEXT PRIMARY KEY,
      signer_id TEXT NOT NULL REFERENCES delegated_signers (id),
      position INTEGER NOT NULL,
      coin_type TEXT NOT NULL,
      pool_id TEXT NOT NULL,
      session_cap TEXT NOT NULL,
      max_per_payment TEXT NOT NULL,
      expiry_ms TEXT NOT NULL,
      kind SMALLINT NOT NULL,
      status TEXT NOT NULL,
      grant_object_id TEXT UNIQUE,
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL,
      UNIQUE (signer_id, position)
    )
  `
  yield* sql`
    CREATE TABLE grant_transitions (
      digest TEXT PRIMARY KEY,
      grant_id TEXT NOT NULL REFERENCES grants (id),
      action TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`CREATE INDEX grant_transitions_grant ON grant_transitions (grant_id)`
})
