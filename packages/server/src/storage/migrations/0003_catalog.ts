import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE services_live_seq`
  yield* sql`
    CREATE TABLE services (
      id TEXT PRIMARY KEY,
      owner_address TEXT NOT NULL,
      status TEXT NOT NULL,
      active_revision INTEGER NOT NULL DEFAULT 0,
      draft_revision INTEGER,
      live_seq BIGINT UNIQUE,
      search TEXT NOT NULL DEFAULT '',
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL
    )
  `
  yield* sql`CREATE INDEX services_listing ON services (status, live_seq)`
  yield* sql`CREATE INDEX services_owner ON services (owner_address)`
  // Trigram index so `q` (a substring match, LIKE '%q%') stays an index scan as the catalog grows.
  // pg_trgm is a trusted extension; public is where every test schema and replica finds it.
  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`
  yield* sql`CREATE INDEX services_search ON services USING gin (search public.gin_trgm_ops) WHERE status = 'live'`
  yield* sql`
    CREATE TABLE service_revisions (
      service_id TEXT NOT NULL REFERENCES services (id),
      revision INTEGER NOT NULL,
      terms TEXT NOT NULL,
      upstream_url TEXT NOT NULL,
      upstream_credential_env TEXT,
      created_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (service_id, revision)
    )
  `
})
