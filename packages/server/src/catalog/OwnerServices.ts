import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeDecoded } from "../storage/Codecs.ts"
import { withRevisions } from "./CatalogReads.ts"
import { ServiceRow, type ServiceWithRevisions } from "./StoredService.ts"

/**
 * Every service one seller owns, drafts included, newest first, each with its
 * active and draft revisions: two statements whatever their number (the
 * seller bounds keep it small, so there is no paging).
 */
export const ownerServices = (sql: SqlClient.SqlClient) => {
  const servicesOf = SqlSchema.findAll({
    Request: Schema.String,
    Result: ServiceRow,
    execute: (owner) =>
      sql`SELECT id, owner_address, status, active_revision, draft_revision, created_at, updated_at FROM services
          WHERE owner_address = ${owner} ORDER BY created_at DESC, id DESC`
  })
  const revisionsOf = withRevisions(sql)
  return (owner: SuiAddress): Effect.Effect<ReadonlyArray<ServiceWithRevisions>, Unavailable> =>
    servicesOf(owner).pipe(Effect.flatMap(revisionsOf), storeDecoded, Effect.withSpan("CatalogRepo.ownerServices"))
}
