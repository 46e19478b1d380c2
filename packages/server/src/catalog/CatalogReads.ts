import { Effect, Option, Schema } from "effect"
import { type SqlClient, type SqlError, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { Count, storeDecoded } from "../storage/Codecs.ts"
import { Revision, ServiceRevision, ServiceRow, type ServiceWithRevisions } from "./StoredService.ts"

/** Each service with its active and draft revisions, read in one statement for them all. */
export const withRevisions = (sql: SqlClient.SqlClient) => {
  const revisionsOf = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: ServiceRevision,
    execute: (ids) =>
      sql`SELECT r.service_id, r.revision, r.terms, r.upstream_url, r.upstream_credential AS sealed_credential
          FROM service_revisions r JOIN services s ON s.id = r.service_id
          WHERE s.id IN ${sql.in(ids)} AND (r.revision = s.active_revision OR r.revision = s.draft_revision)`
  })
  return (services: ReadonlyArray<ServiceRow>): Effect.Effect<ReadonlyArray<ServiceWithRevisions>, SqlError.SqlError | Schema.SchemaError> =>
    Effect.gen(function*() {
      if (services.length === 0) return []
      const revisions = yield* revisionsOf(services.map((s) => s.id))
      const byKey = new Map(revisions.map(({ serviceId, ...revision }) => [`${serviceId}#${revision.revision}`, revision] as const))
      return services.map((service) => ({
        service,
        active: Option.fromNullishOr(byKey.get(`${service.id}#${service.activeRevision}`)),
        draft: service.draftRevision === null ? Option.none() : Option.fromNullishOr(byKey.get(`${service.id}#${service.draftRevision}`))
      }))
    })
}

/** A revision that has been activated (and so never changes again); none for a draft or an unknown one. */
export const activatedRevision = (sql: SqlClient.SqlClient) =>
  SqlSchema.findOneOption({
    Request: Schema.Struct({ id: Schema.String, revision: Schema.Number }),
    Result: Revision,
    execute: ({ id, revision }) =>
      sql`SELECT r.revision, r.terms, r.upstream_url, r.upstream_credential AS sealed_credential
          FROM service_revisions r JOIN services s ON s.id = r.service_id
          WHERE r.service_id = ${id} AND r.revision = ${revision} AND r.revision <= s.active_revision`
  })

export const findService = (sql: SqlClient.SqlClient) => {
  const serviceById = SqlSchema.findAll({
    Request: Schema.String,
    Result: ServiceRow,
    execute: (id) => sql`SELECT id, owner_address, status, active_revision, draft_revision, created_at, updated_at FROM services WHERE id = ${id}`
  })
  const revisionsOf = withRevisions(sql)
  return (id: string): Effect.Effect<Option.Option<ServiceWithRevisions>, Unavailable> =>
    serviceById(id).pipe(
      Effect.flatMap(revisionsOf),
      Effect.map((rows) => Option.fromNullishOr(rows[0])),
      storeDecoded,
      Effect.withSpan("CatalogRepo.find", { attributes: { "service.id": id } })
    )
}

export const findActivated = (sql: SqlClient.SqlClient) => {
  const activated = activatedRevision(sql)
  return (id: string, revision: number): Effect.Effect<Option.Option<Revision>, Unavailable> =>
    activated({ id, revision }).pipe(
      storeDecoded,
      Effect.withSpan("CatalogRepo.findActivated", { attributes: { "service.id": id, "service.revision": revision } })
    )
}

export const countLive = (sql: SqlClient.SqlClient) => {
  const liveOf = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ n: Count }),
    execute: (owner) => sql`SELECT count(*) AS n FROM services WHERE owner_address = ${owner} AND status = 'live'`
  })
  return (owner: string): Effect.Effect<number, Unavailable> =>
    liveOf(owner).pipe(Effect.map(({ n }) => n), storeDecoded, Effect.withSpan("CatalogRepo.countLive"))
}
