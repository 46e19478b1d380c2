import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Rate limits and budgets counted in the store, so every replica on one database spends the same
 * budget: one row per bucket (what is limited, and for whom) and fixed window (its start and end, ms
 * since the epoch). Ended windows are swept.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE usage_counters (
      bucket TEXT NOT NULL,
      window_start BIGINT NOT NULL,
      window_end BIGINT NOT NULL,
      used BIGINT NOT NULL,
      PRIMARY KEY (bucket, window_start)
    )
  `
  yield* sql`CREATE INDEX usage_counters_window_end ON usage_counters (window_end)`
})
