import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeDecoded } from "../storage/Codecs.ts"
import { activatedRevision } from "./CatalogReads.ts"
import { lockedCounts } from "./SellerBounds.ts"
import type { Terms } from "./StoredService.ts"

/** Why an activation changed nothing, or the revision it made live. */
export type Activation =
  | { readonly _tag: "Activated"; readonly revision: number }
  | { readonly _tag: "NothingToActivate" }
  | { readonly _tag: "LiveLimitReached" }

/** What the public list matches `q` against: id, name and description, lowercased. */
const searchText = (id: string, terms: Terms) => `${id} ${terms.name} ${terms.description}`.toLowerCase()

export const activateDraft = (sql: SqlClient.SqlClient) => {
  const countsOf = lockedCounts(sql)
  const activated = activatedRevision(sql)
  // A live service's edit going live adds no service, so only a first activation meets the bound.
  const makeLive = SqlSchema.findOneOption({
    Request: Schema.Struct({ id: Schema.String, owner: Schema.String, now: Schema.String, underBound: Schema.Boolean }),
    Result: Schema.Struct({ activeRevision: Schema.Number }),
    execute: ({ id, owner, now, underBound }) =>
      sql`UPDATE services
          SET active_revision = draft_revision, draft_revision = NULL, status = 'live',
              live_seq = COALESCE(live_seq, nextval('services_live_seq')), updated_at = ${now}, search = ''
          WHERE id = ${id} AND owner_address = ${owner} AND draft_revision IS NOT NULL
            AND ${underBound ? sql`TRUE` : sql`status = 'live'`}
          RETURNING active_revision`
  })
  const draftPending = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, owner: Schema.String }),
    Result: Schema.Struct({ pending: Schema.Boolean }),
    execute: ({ id, owner }) =>
      sql`SELECT EXISTS (SELECT 1 FROM services WHERE id = ${id} AND owner_address = ${owner} AND draft_revision IS NOT NULL)
          AS pending`
  })
  /** The text `q` matches a live service by, from the revision just made live. */
  const searchable = (id: string, active: number) =>
    Effect.gen(function*() {
      const revision = yield* activated({ id, revision: active })
      if (Option.isSome(revision)) yield* sql`UPDATE services SET search = ${searchText(id, revision.value.terms)} WHERE id = ${id}`
    })
  return ({ id, owner, now, maxLive }: { id: string; owner: SuiAddress; now: Date; maxLive: number }): Effect.Effect<Activation, Unavailable> =>
    sql.withTransaction(
      Effect.gen(function*() {
        const { live } = yield* countsOf(owner)
        const made = yield* makeLive({ id, owner, now: now.toISOString(), underBound: live < maxLive })
        if (Option.isSome(made)) {
          yield* searchable(id, made.value.activeRevision)
          return { _tag: "Activated", revision: made.value.activeRevision } satisfies Activation
        }
        return (yield* draftPending({ id, owner })).pending
          ? { _tag: "LiveLimitReached" } satisfies Activation
          : { _tag: "NothingToActivate" } satisfies Activation
      })
    ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.activate", { attributes: { "service.id": id } }))
}
