import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { Count } from "../storage/Codecs.ts"

/** Any fixed key: the advisory-lock namespace of per-seller catalog bounds. */
const SELLER_BOUNDS_LOCK = 7_412_013

/**
 * Counts the owner's drafts and live services while holding a per-owner
 * lock to the end of the transaction, so two requests of one seller
 * cannot both pass a bound that only one of them fits under (a plain
 * read-then-write would let concurrent activations overshoot it).
 */
export const lockedCounts = (sql: SqlClient.SqlClient) => {
  const ownerCounts = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ drafts: Count, live: Count }),
    execute: (owner) =>
      sql`SELECT count(*) FILTER (WHERE status = 'draft') AS drafts, count(*) FILTER (WHERE status = 'live') AS live
          FROM services WHERE owner_address = ${owner}`
  })
  return (owner: SuiAddress) =>
    Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(${SELLER_BOUNDS_LOCK}::int, hashtext(${owner}))`
      return yield* ownerCounts(owner)
    })
}
