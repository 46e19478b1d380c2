import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeDecoded } from "../storage/Codecs.ts"
import { lockedCounts } from "./SellerBounds.ts"
import { type Revision, TermsJson } from "./StoredService.ts"

// A draft is rewritten by each edit until it is activated; from then on the revision never changes.
const putDraftRevision = (sql: SqlClient.SqlClient, id: string, revision: Revision, now: Date) =>
  sql`INSERT INTO service_revisions (service_id, revision, terms, upstream_url, upstream_credential, created_at)
      VALUES (${id}, ${revision.revision}, ${Schema.encodeSync(TermsJson)(revision.terms)}, ${revision.upstreamUrl},
        ${revision.sealedCredential}, ${now.toISOString()})
      ON CONFLICT (service_id, revision) DO UPDATE SET terms = EXCLUDED.terms, upstream_url = EXCLUDED.upstream_url,
        upstream_credential = EXCLUDED.upstream_credential, created_at = EXCLUDED.created_at`

export const insertDraft = (sql: SqlClient.SqlClient) => {
  const countsOf = lockedCounts(sql)
  return ({ id, owner, revision, now, maxDrafts }: { id: string; owner: SuiAddress; revision: Revision; now: Date; maxDrafts: number }): Effect.Effect<boolean, Unavailable> =>
    sql.withTransaction(
      Effect.gen(function*() {
        if ((yield* countsOf(owner)).drafts >= maxDrafts) return false
        yield* sql`INSERT INTO services (id, owner_address, status, draft_revision, created_at, updated_at)
            VALUES (${id}, ${owner}, 'draft', ${revision.revision}, ${now.toISOString()}, ${now.toISOString()})`
        yield* putDraftRevision(sql, id, revision, now)
        return true
      })
    ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.insertDraft", { attributes: { "service.id": id } }))
}

export const addRevision = (sql: SqlClient.SqlClient) => {
  // The draft is always the active revision + 1, so each activation raises activeRevision by exactly one.
  const openDraft = SqlSchema.findOneOption({
    Request: Schema.Struct({ id: Schema.String, owner: Schema.String, now: Schema.String }),
    Result: Schema.Struct({ next: Schema.Number }),
    execute: ({ id, owner, now }) =>
      sql`UPDATE services SET draft_revision = active_revision + 1, updated_at = ${now}
          WHERE id = ${id} AND owner_address = ${owner}
          RETURNING draft_revision AS next`
  })
  return ({ id, owner, revision, now }: { id: string; owner: SuiAddress; revision: Omit<Revision, "revision">; now: Date }): Effect.Effect<Option.Option<number>, Unavailable> =>
    sql.withTransaction(
      Effect.gen(function*() {
        const opened = yield* openDraft({ id, owner, now: now.toISOString() })
        if (Option.isNone(opened)) return Option.none<number>()
        const { next } = opened.value
        yield* putDraftRevision(sql, id, { ...revision, revision: next }, now)
        return Option.some(next)
      })
    ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.addRevision", { attributes: { "service.id": id } }))
}
