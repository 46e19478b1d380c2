import { Cache, Clock, Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { CatalogEntry, type ManagedService, ManagedService as ManagedServiceSchema, type RegisterService } from "@gateway/domain/CatalogEntry"
import { Conflict, Invalid, NotFound, type Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { CatalogRepo, type Revision, type ServiceWithRevisions } from "../repositories/CatalogRepo.ts"
import { newId } from "./NewId.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { ServiceReadCache } from "./ServiceReadCache.ts"

const notFound = () => new NotFound({ message: "No such service", reason: "unknown_service" })

/** The gateway's own address for paid calls to a service. */
export const resourcePath = (id: string) => `/v1/pay/${id}`

export interface CatalogPage {
  readonly count: number
  readonly services: ReadonlyArray<CatalogEntry>
  readonly nextCursor: string | null
}

/**
 * The catalog's rules: sellers register drafts and activate them; callers read
 * only live services, always at their active revision, never invented ones.
 */
export class Catalog extends Context.Service<Catalog, {
  register(owner: SuiAddress, body: RegisterService): Effect.Effect<ManagedService, UnsupportedAsset | Unavailable>
  edit(owner: SuiAddress, id: ServiceId, body: RegisterService): Effect.Effect<ManagedService, NotFound | UnsupportedAsset | Unavailable>
  activate(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Conflict | Unavailable>
  manage(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Unavailable>
  get(id: string): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The terms of an activated revision, as a 402 challenge minted under it asked for them. */
  atRevision(id: string, revision: number): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The live entry with what forwarding needs (upstream and credential locator); never returned to callers. */
  forForwarding(id: string): Effect.Effect<{ entry: CatalogEntry; upstreamUrl: string; upstreamCredentialEnv: string | null }, NotFound | Unavailable>
  list(query: { q?: string; limit?: number; cursor?: string }): Effect.Effect<CatalogPage, Invalid | Unavailable>
}>()("@gateway/server/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function*() {
      const repo = yield* CatalogRepo
      const config = yield* AppConfig
      const publicUrl = yield* PublicUrl
      const chain = yield* Chain
      const readCache = yield* ServiceReadCache
      const supported = new Set(config.supportedAssets.map(normalizeCoinType))
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const entryOf = (id: string, status: ServiceWithRevisions["service"]["status"], activeRevision: number, revision: Revision): CatalogEntry =>
        Schema.decodeUnknownSync(CatalogEntry)({
          id,
          name: revision.terms.name,
          description: revision.terms.description,
          method: revision.terms.method,
          path: revision.terms.path,
          resourceUrl: `${publicUrl.origin}${resourcePath(id)}`,
          price: revision.terms.price,
          asset: revision.terms.asset,
          decimals: revision.terms.decimals,
          payTo: revision.terms.payTo,
          network: chain.network,
          dialects: revision.terms.dialects ?? ["mpp", "x402"],
          rail: "delegate",
          mimeType: revision.terms.mimeType ?? "application/json",
          status,
          managed: true,
          brand: revision.terms.brand ?? null,
          activeRevision
        })

      const managed = ({ service, active, draft }: ServiceWithRevisions): ManagedService => {
        // The owner's view shows the live terms, or the draft's before the first activation.
        const shown = Option.getOrElse(Option.orElse(active, () => draft), () => undefined)
        if (shown === undefined) throw new Error(`service ${service.id} has no revision`)
        const upstream = Option.getOrElse(Option.orElse(draft, () => active), () => shown)
        return Schema.decodeUnknownSync(ManagedServiceSchema)({
          service: Schema.encodeSync(CatalogEntry)(entryOf(service.id, service.status, service.activeRevision, shown)),
          management: {
            ownerAddress: service.ownerAddress,
            upstreamUrl: upstream.upstreamUrl,
            hasUpstreamCredential: upstream.upstreamCredentialEnv !== null,
            draftRevision: service.draftRevision,
            createdAt: service.createdAt,
            updatedAt: service.updatedAt
          }
        })
      }

      const checkAsset = (body: RegisterService) =>
        supported.has(normalizeCoinType(body.asset))
          ? Effect.void
          : Effect.fail(new UnsupportedAsset({ message: `The gateway does not accept ${body.asset}`, reason: `body.asset: supported are ${[...supported].join(", ")}` }))

      const revisionOf = (body: RegisterService): Omit<Revision, "revision"> => {
        const { upstreamUrl, upstreamCredentialEnv, ...terms } = body
        return { terms, upstreamUrl, upstreamCredentialEnv: upstreamCredentialEnv ?? null }
      }

      const owned = Effect.fnUntraced(function*(owner: SuiAddress, id: string) {
        const found = yield* repo.find(id)
        if (Option.isNone(found) || found.value.service.ownerAddress !== owner) return yield* notFound()
        return found.value
      })

      const live = Effect.fnUntraced(function*(id: string) {
        const found = yield* repo.find(id)
        if (Option.isNone(found) || found.value.service.status !== "live" || Option.isNone(found.value.active)) return yield* notFound()
        return { found: found.value, active: found.value.active.value }
      })

      const liveTerms = Effect.fnUntraced(function*(id: string) {
        const { found, active } = yield* live(id)
        return {
          entry: entryOf(found.service.id, found.service.status, found.service.activeRevision, active),
          upstreamUrl: active.upstreamUrl,
          upstreamCredentialEnv: active.upstreamCredentialEnv
        }
      })
      /**
       * The hot reads — `GET /v1/services/{id}` and minting a 402 for it — are
       * cached for one second; this replica drops an entry when it activates
       * that service. Failures (unknown id, store down) are never cached.
       */
      const entries = yield* Cache.makeWith((id: string) => liveTerms(id), {
        capacity: 10_000,
        timeToLive: (exit) => (exit._tag === "Success" ? "1 second" : 0)
      })

      // An activated revision never changes, so its terms stay cached until evicted.
      const revisions = yield* Cache.makeWith(
        (key: string) =>
          Effect.gen(function*() {
            const [id = "", revision = "0"] = key.split("#")
            const found = yield* repo.findActivated(id, Number(revision))
            if (Option.isNone(found)) return yield* notFound()
            return entryOf(id, "live", found.value.revision, found.value)
          }),
        { capacity: 10_000, timeToLive: (exit) => (exit._tag === "Success" ? Duration.infinity : 0) }
      )

      return Catalog.of({
        register: Effect.fn("Catalog.register")(function*(owner, body) {
          yield* checkAsset(body)
          const id = ServiceId.make(newId("svc"))
          yield* repo.insertDraft({ id, owner, revision: { revision: 1, ...revisionOf(body) }, now: yield* now })
          // Just inserted in this request: not finding it is a defect, not a caller's error.
          return managed(yield* owned(owner, id).pipe(Effect.catchTag("NOT_FOUND", Effect.die)))
        }),
        edit: Effect.fn("Catalog.edit")(function*(owner, id, body) {
          yield* owned(owner, id)
          yield* checkAsset(body)
          const added = yield* repo.addRevision({ id, owner, revision: revisionOf(body), now: yield* now })
          if (Option.isNone(added)) return yield* notFound()
          return managed(yield* owned(owner, id))
        }),
        activate: Effect.fn("Catalog.activate")(function*(owner, id) {
          yield* owned(owner, id)
          const activated = yield* repo.activate({ id, owner, now: yield* now })
          if (Option.isNone(activated)) return yield* new Conflict({ message: "Nothing to activate", reason: "no_draft_revision" })
          yield* Cache.invalidate(entries, id)
          readCache.invalidate(id)
          return managed(yield* owned(owner, id))
        }),
        manage: Effect.fn("Catalog.manage")(function*(owner, id) {
          return managed(yield* owned(owner, id))
        }),
        get: (id) => Effect.map(Cache.get(entries, id), (terms) => terms.entry),
        forForwarding: (id) => Cache.get(entries, id),
        atRevision: (id, revision) => Cache.get(revisions, `${id}#${revision}`),
        list: Effect.fn("Catalog.list")(function*(query) {
          const limit = query.limit ?? 50
          let after = Option.none<bigint>()
          if (query.cursor !== undefined) {
            const decoded = Buffer.from(query.cursor, "base64url").toString()
            if (!/^[1-9][0-9]{0,18}$/.test(decoded)) {
              return yield* new Invalid({ message: "The request is invalid", reason: "query.cursor: not a cursor this server issued" })
            }
            after = Option.some(BigInt(decoded))
          }
          const page = yield* repo.listLive({ q: query.q, limit: limit + 1, afterSeq: after })
          const rows = page.rows.slice(0, limit)
          const last = rows[rows.length - 1]
          return {
            count: page.count,
            services: rows.flatMap(({ entry }) =>
              Option.match(entry.active, {
                onNone: () => [],
                onSome: (active) => [entryOf(entry.service.id, entry.service.status, entry.service.activeRevision, active)]
              })),
            nextCursor: page.rows.length > limit && last !== undefined ? Buffer.from(last.seq.toString()).toString("base64url") : null
          }
        })
      })
    })
  )
}
