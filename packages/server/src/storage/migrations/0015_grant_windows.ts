import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Each grant's spending window and on-chain recipient list, as its create
 * carries them (issue 25): the finalize verifies the chain against these,
 * and views and manifests show them. Grants prepared before had neither
 * (kind 0, all zeros; any recipient), which the defaults say.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE grants
      ADD COLUMN window_kind SMALLINT NOT NULL DEFAULT 0 CHECK (window_kind IN (0, 1, 2)),
      ADD COLUMN window_period_ms TEXT NOT NULL DEFAULT '0',
      ADD COLUMN window_limit TEXT NOT NULL DEFAULT '0',
      ADD COLUMN recipients JSONB NOT NULL DEFAULT '[]'::jsonb
  `
})
