import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { RegisterService, ServiceStatus } from "@gateway/domain/CatalogEntry"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { BigIntColumn, Count, storeDecoded, TimestampIso } from "../storage/Codecs.ts"

/** The terms of one immutable revision, as the seller registered them (upstream and its credential aside). */
export const Terms = RegisterService.mapFields(({ upstreamUrl: _u, upstreamCredential: _c, ...terms }) => terms)
export type Terms = typeof Terms.Type

const TermsJson = Schema.fromJsonString(Terms)

/** A service as stored: who owns it, its state and which revisions are live and pending. */
export const ServiceRow = Schema.Struct({
  id: Schema.String,
  ownerAddress: Schema.String,
  status: ServiceStatus,
  activeRevision: Schema.Number,
  draftRevision: Schema.NullOr(Schema.Number),
  createdAt: TimestampIso,
  updatedAt: TimestampIso
})
export type ServiceRow = typeof ServiceRow.Type

/** One revision of a service's terms and upstream. */
export const Revision = Schema.Struct({
  revision: Schema.Number,
  terms: TermsJson,
  upstreamUrl: Schema.String,
  /** The seller's upstream secret as SellerCredentials sealed it; never the secret itself. */
  sealedCredential: Schema.NullOr(Schema.String)
})
export type Revision = typeof Revision.Type

export interface ServiceWithRevisions {
  readonly service: ServiceRow
  /** The revision callers see (none before the first activation). */
  readonly active: Option.Option<Revision>
  /** The newest revision not yet activated. */
  readonly draft: Option.Option<Revision>
}

const ServiceRevision = Schema.Struct({ serviceId: Schema.String, ...Revision.fields })

/** What the public list matches `q` against: id, name and description, lowercased. */
const searchText = (id: string, terms: Terms) => `${id} ${terms.name} ${terms.description}`.toLowerCase()

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`


/** Any fixed key: the advisory-lock namespace of per-seller catalog bounds. */
const SELLER_BOUNDS_LOCK = 7_412_013

/** Why an activation changed nothing, or the revision it made live. */
export type Activation =
  | { readonly _tag: "Activated"; readonly revision: number }
  | { readonly _tag: "NothingToActivate" }
  | { readonly _tag: "LiveLimitReached" }

/** SQL for services and their immutable revisions. */
export class CatalogRepo extends Context.Service<CatalogRepo, {
  /** Inserts a new draft service unless its owner already holds `maxDrafts` drafts; whether it did. */
  insertDraft(input: { id: string; owner: SuiAddress; revision: Revision; now: Date; maxDrafts: number }): Effect.Effect<boolean, Unavailable>
  /** Adds the next revision as the draft of the owner's service; none when the service is not theirs. */
  addRevision(input: { id: string; owner: SuiAddress; revision: Omit<Revision, "revision">; now: Date }): Effect.Effect<Option.Option<number>, Unavailable>
  /** Makes the draft live; a service's first activation only while its owner has fewer than `maxLive` live services. */
  activate(input: { id: string; owner: SuiAddress; now: Date; maxLive: number }): Effect.Effect<Activation, Unavailable>
  find(id: string): Effect.Effect<Option.Option<ServiceWithRevisions>, Unavailable>
  /** A revision that has been activated (and so never changes again); none for a draft or an unknown one. */
  findActivated(id: string, revision: number): Effect.Effect<Option.Option<Revision>, Unavailable>
  /** How many live services the owner has. */
  countLive(owner: string): Effect.Effect<number, Unavailable>
  /** Live services matching `q`, in activation order after `afterSeq`, and how many match in all. */
  listLive(input: { q: string | undefined; limit: number; afterSeq: Option.Option<bigint> }): Effect.Effect<{
    readonly count: number
    readonly rows: ReadonlyArray<{ readonly seq: bigint; readonly entry: ServiceWithRevisions }>
  }, Unavailable>
}>()("@gateway/server/CatalogRepo") {
  static readonly layer = Layer.effect(
    CatalogRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const revisionsOf = SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: ServiceRevision,
        execute: (ids) =>
          sql`SELECT r.service_id, r.revision, r.terms, r.upstream_url, r.upstream_credential AS sealed_credential
              FROM service_revisions r JOIN services s ON s.id = r.service_id
              WHERE s.id IN ${sql.in(ids)} AND (r.revision = s.active_revision OR r.revision = s.draft_revision)`
      })

      // A draft is rewritten by each edit until it is activated; from then on the revision never changes.
      const putDraftRevision = (id: string, revision: Revision, now: Date) =>
        sql`INSERT INTO service_revisions (service_id, revision, terms, upstream_url, upstream_credential, created_at)
            VALUES (${id}, ${revision.revision}, ${Schema.encodeSync(TermsJson)(revision.terms)}, ${revision.upstreamUrl},
              ${revision.sealedCredential}, ${now.toISOString()})
            ON CONFLICT (service_id, revision) DO UPDATE SET terms = EXCLUDED.terms, upstream_url = EXCLUDED.upstream_url,
              upstream_credential = EXCLUDED.upstream_credential, created_at = EXCLUDED.created_at`

      const withRevisions = (services: ReadonlyArray<ServiceRow>) =>
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

      const serviceById = SqlSchema.findAll({
        Request: Schema.String,
        Result: ServiceRow,
        execute: (id) =>
          sql`SELECT id, owner_address, status, active_revision, draft_revision, created_at, updated_at FROM services WHERE id = ${id}`
      })

      const activatedRevision = SqlSchema.findOneOption({
        Request: Schema.Struct({ id: Schema.String, revision: Schema.Number }),
        Result: Revision,
        execute: ({ id, revision }) =>
          sql`SELECT r.revision, r.terms, r.upstream_url, r.upstream_credential AS sealed_credential
              FROM service_revisions r JOIN services s ON s.id = r.service_id
              WHERE r.service_id = ${id} AND r.revision = ${revision} AND r.revision <= s.active_revision`
      })

      /** The live services a search matches, as `match` and `after` fragments of the request. */
      const liveWhere = (r: { readonly pattern: string | null; readonly afterSeq: string | null }) =>
        sql.and([
          sql`status = 'live'`,
          ...(r.pattern === null ? [] : [sql`search LIKE ${r.pattern}`]),
          ...(r.afterSeq === null ? [] : [sql`live_seq > ${r.afterSeq}`])
        ])
      const LiveQuery = Schema.Struct({ pattern: Schema.NullOr(Schema.String), afterSeq: Schema.NullOr(Schema.String), limit: Schema.Number })
      const liveCount = SqlSchema.findOne({
        Request: LiveQuery,
        Result: Schema.Struct({ n: Count }),
        execute: (r) => sql`SELECT count(*) AS n FROM services WHERE ${liveWhere({ ...r, afterSeq: null })}`
      })
      const livePage = SqlSchema.findAll({
        Request: LiveQuery,
        Result: Schema.Struct({ ...ServiceRow.fields, liveSeq: BigIntColumn }),
        execute: (r) =>
          sql`SELECT id, owner_address, status, active_revision, draft_revision, created_at, updated_at, live_seq FROM services
              WHERE ${liveWhere(r)} ORDER BY live_seq LIMIT ${r.limit}`
      })

      /**
       * Counts the owner's drafts and live services while holding a per-owner
       * lock to the end of the transaction, so two requests of one seller
       * cannot both pass a bound that only one of them fits under (a plain
       * read-then-write would let concurrent activations overshoot it).
       */
      const ownerCounts = SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ drafts: Count, live: Count }),
        execute: (owner) =>
          sql`SELECT count(*) FILTER (WHERE status = 'draft') AS drafts, count(*) FILTER (WHERE status = 'live') AS live
              FROM services WHERE owner_address = ${owner}`
      })
      const lockedCounts = (owner: SuiAddress) =>
        Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(${SELLER_BOUNDS_LOCK}::int, hashtext(${owner}))`
          return yield* ownerCounts(owner)
        })

      // The draft is always the active revision + 1, so each activation raises activeRevision by exactly one.
      const openDraft = SqlSchema.findOneOption({
        Request: Schema.Struct({ id: Schema.String, owner: Schema.String, now: Schema.String }),
        Result: Schema.Struct({ next: Schema.Number }),
        execute: ({ id, owner, now }) =>
          sql`UPDATE services SET draft_revision = active_revision + 1, updated_at = ${now}
              WHERE id = ${id} AND owner_address = ${owner}
              RETURNING draft_revision AS next`
      })
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
          const revision = yield* activatedRevision({ id, revision: active })
          if (Option.isSome(revision)) yield* sql`UPDATE services SET search = ${searchText(id, revision.value.terms)} WHERE id = ${id}`
        })

      const liveOf = SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ n: Count }),
        execute: (owner) => sql`SELECT count(*) AS n FROM services WHERE owner_address = ${owner} AND status = 'live'`
      })

      return CatalogRepo.of({
        countLive: (owner) =>
          liveOf(owner).pipe(Effect.map(({ n }) => n), storeDecoded, Effect.withSpan("CatalogRepo.countLive")),
        insertDraft: ({ id, owner, revision, now, maxDrafts }) =>
          sql.withTransaction(
            Effect.gen(function*() {
              if ((yield* lockedCounts(owner)).drafts >= maxDrafts) return false
              yield* sql`INSERT INTO services (id, owner_address, status, draft_revision, created_at, updated_at)
                  VALUES (${id}, ${owner}, 'draft', ${revision.revision}, ${now.toISOString()}, ${now.toISOString()})`
              yield* putDraftRevision(id, revision, now)
              return true
            })
          ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.insertDraft", { attributes: { "service.id": id } })),

        addRevision: ({ id, owner, revision, now }) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const opened = yield* openDraft({ id, owner, now: now.toISOString() })
              if (Option.isNone(opened)) return Option.none<number>()
              const { next } = opened.value
              yield* putDraftRevision(id, { ...revision, revision: next }, now)
              return Option.some(next)
            })
          ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.addRevision", { attributes: { "service.id": id } })),

        activate: ({ id, owner, now, maxLive }) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const { live } = yield* lockedCounts(owner)
              const made = yield* makeLive({ id, owner, now: now.toISOString(), underBound: live < maxLive })
              if (Option.isSome(made)) {
                yield* searchable(id, made.value.activeRevision)
                return { _tag: "Activated", revision: made.value.activeRevision } satisfies Activation
              }
              return (yield* draftPending({ id, owner })).pending
                ? { _tag: "LiveLimitReached" } satisfies Activation
                : { _tag: "NothingToActivate" } satisfies Activation
            })
          ).pipe(storeDecoded, Effect.withSpan("CatalogRepo.activate", { attributes: { "service.id": id } })),

        find: (id) =>
          serviceById(id).pipe(
            Effect.flatMap(withRevisions),
            Effect.map((rows) => Option.fromNullishOr(rows[0])),
            storeDecoded,
            Effect.withSpan("CatalogRepo.find", { attributes: { "service.id": id } })
          ),

        findActivated: (id, revision) =>
          activatedRevision({ id, revision }).pipe(
            storeDecoded,
            Effect.withSpan("CatalogRepo.findActivated", { attributes: { "service.id": id, "service.revision": revision } })
          ),

        listLive: ({ q, limit, afterSeq }) =>
          Effect.gen(function*() {
            // One snapshot for the count and the page, so `count` always describes the rows beside it.
            yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`
            const query = {
              pattern: q === undefined || q.trim() === "" ? null : likePattern(q.trim()),
              afterSeq: Option.match(afterSeq, { onNone: () => null, onSome: (seq) => seq.toString() }),
              limit
            }
            const { n } = yield* liveCount(query)
            const rows = yield* livePage(query)
            const entries = yield* withRevisions(rows)
            return { count: n, rows: entries.map((entry, i) => ({ seq: rows[i]?.liveSeq ?? 0n, entry })) }
          }).pipe(sql.withTransaction, storeDecoded, Effect.withSpan("CatalogRepo.listLive"))
      })
    })
  )
}
