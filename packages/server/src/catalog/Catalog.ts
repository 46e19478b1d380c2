import { Clock, Context, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { CatalogEntry, type ManagedService, ManagedService as ManagedServiceSchema, type RegisterService } from "@gateway/domain/CatalogEntry"
import { Conflict, Invalid, NotFound, Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import { ServiceId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { CatalogChanges } from "./CatalogChanges.ts"
import { CatalogRepo, type Revision, type ServiceWithRevisions } from "./CatalogRepo.ts"
import { newId } from "../storage/NewId.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { SellerCredentials } from "../upstream/SellerCredentials.ts"
import { ServiceReadCache } from "./ServiceReadCache.ts"
import { checkUpstreamUrl, hostPortOf } from "../upstream/UpstreamPolicy.ts"

const notFound = () => new NotFound({ message: "No such service", reason: "unknown_service" })

/** The gateway's own address for paid calls to a service. */
export const resourcePath = (id: string) => `/v1/pay/${id}`

/** What forwarding a paid call needs; never returned to callers. The credential is opened at each call, never cached. */
export interface Forwardable {
  readonly entry: CatalogEntry
  readonly upstreamUrl: string
  readonly upstreamCredential: Option.Option<Redacted.Redacted<string>>
}

/** A live service's terms as callers read them, with what forwarding needs; the credential still sealed. */
export interface LiveTerms {
  readonly entry: CatalogEntry
  readonly upstreamUrl: string
  readonly owner: string
  readonly sealedCredential: string | null
}

export interface CatalogPage {
  readonly count: number
  readonly services: ReadonlyArray<CatalogEntry>
  readonly nextCursor: string | null
}

/**
 * The catalog's rules: sellers register drafts and activate them; callers read
 * only live services, always at their active revision, never invented ones.
 * Live terms are kept in ServiceReadCache, as public reads' answers are,
 * until the CatalogChanges event every change publishes drops them.
 */
export class Catalog extends Context.Service<Catalog, {
  register(owner: SuiAddress, body: RegisterService): Effect.Effect<ManagedService, Invalid | UnsupportedAsset | Conflict | Unavailable>
  edit(owner: SuiAddress, id: ServiceId, body: RegisterService): Effect.Effect<ManagedService, NotFound | Invalid | UnsupportedAsset | Unavailable>
  activate(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Conflict | Unavailable>
  manage(owner: SuiAddress, id: ServiceId): Effect.Effect<ManagedService, NotFound | Unavailable>
  get(id: string): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The terms of an activated revision, as a 402 challenge minted under it asked for them. */
  atRevision(id: string, revision: number): Effect.Effect<CatalogEntry, NotFound | Unavailable>
  /** The live entry with its upstream and the seller's credential, opened for this call. */
  forForwarding(id: string): Effect.Effect<Forwardable, NotFound | Unavailable>
  list(query: { q?: string; limit?: number; cursor?: string }): Effect.Effect<CatalogPage, Invalid | Unavailable>
}>()("@gateway/server/Catalog") {
  static readonly layer = Layer.effect(
    Catalog,
    Effect.gen(function*() {
      const repo = yield* CatalogRepo
      const config = yield* AppConfig
      const publicUrl = yield* PublicUrl
      const chain = yield* Chain
      const changes = yield* CatalogChanges
      const reads = yield* ServiceReadCache
      const credentials = yield* SellerCredentials
      const gateway = hostPortOf(new URL(publicUrl.origin))
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
            hasUpstreamCredential: upstream.sealedCredential !== null,
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

      /** The upstream rules (UpstreamPolicy) at registration, plus never the gateway itself, even if allow-listed. */
      const checkUpstream = Effect.fnUntraced(function*(body: RegisterService) {
        const verdict = yield* checkUpstreamUrl(body.upstreamUrl, config.upstreamAllowHosts)
        const reason = !verdict.ok ? verdict.reason : hostPortOf(new URL(body.upstreamUrl)) === gateway ? "upstream_url_is_the_gateway_itself" : undefined
        if (reason !== undefined) return yield* new Invalid({ message: "The request is invalid", reason: `body.upstreamUrl: ${reason}` })
      })

      /**
       * A revision's terms and upstream, with the credential sealed for this
       * service and seller: a new one when given, none when null, and when
       * absent the one the service's newest revision holds (`kept`).
       */
      const revisionOf = (owner: SuiAddress, id: string, body: RegisterService, kept: string | null): Omit<Revision, "revision"> => {
        const { upstreamUrl, upstreamCredential, ...terms } = body
        const sealedCredential = upstreamCredential === undefined
          ? kept
          : upstreamCredential === null
          ? null
          : credentials.seal(id, owner, upstreamCredential)
        return { terms, upstreamUrl, sealedCredential }
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

      /** Kept until the service changes: these are read for every 402 and paid call, not only public reads. */
      const liveTerms = Effect.fnUntraced(function*(id: string) {
        const kept = reads.liveTerms(id)
        if (kept !== undefined) return kept
        const readAt = reads.generation()
        const { found, active } = yield* live(id)
        const terms: LiveTerms = {
          entry: entryOf(found.service.id, found.service.status, found.service.activeRevision, active),
          upstreamUrl: active.upstreamUrl,
          owner: found.service.ownerAddress,
          sealedCredential: active.sealedCredential
        }
        reads.keepLiveTerms(id, terms, readAt)
        return terms
      })

      return Catalog.of({
        register: Effect.fn("Catalog.register")(function*(owner, body) {
          yield* checkAsset(body)
          yield* checkUpstream(body)
          const id = ServiceId.make(newId("svc"))
          const revision = { revision: 1, ...revisionOf(owner, id, body, null) }
          if (!(yield* repo.insertDraft({ id, owner, revision, now: yield* now, maxDrafts: config.sellerMaxDrafts }))) {
            return yield* new Conflict({
              message: `A seller may hold at most ${config.sellerMaxDrafts} drafts; activate one first`,
              reason: "seller_draft_limit_reached"
            })
          }
          yield* changes.publish(id)
          // Just inserted in this request: not finding it is a defect, not a caller's error.
          return managed(yield* owned(owner, id).pipe(Effect.catchTag("NOT_FOUND", Effect.die)))
        }),
        edit: Effect.fn("Catalog.edit")(function*(owner, id, body) {
          const current = yield* owned(owner, id)
          yield* checkAsset(body)
          yield* checkUpstream(body)
          const newest = Option.orElse(current.draft, () => current.active)
          const kept = Option.match(newest, { onNone: () => null, onSome: (r) => r.sealedCredential })
          const added = yield* repo.addRevision({ id, owner, revision: revisionOf(owner, id, body, kept), now: yield* now })
          if (Option.isNone(added)) return yield* notFound()
          yield* changes.publish(id)
          return managed(yield* owned(owner, id))
        }),
        activate: Effect.fn("Catalog.activate")(function*(owner, id) {
          yield* owned(owner, id)
          const activation = yield* repo.activate({ id, owner, now: yield* now, maxLive: config.sellerMaxLive })
          if (activation._tag === "NothingToActivate") {
            return yield* new Conflict({ message: "Nothing to activate", reason: "no_draft_revision" })
          }
          if (activation._tag === "LiveLimitReached") {
            return yield* new Conflict({
              message: `A seller may have at most ${config.sellerMaxLive} live services`,
              reason: "seller_live_limit_reached"
            })
          }
          yield* changes.publish(id)
          return managed(yield* owned(owner, id))
        }),
        manage: Effect.fn("Catalog.manage")(function*(owner, id) {
          return managed(yield* owned(owner, id))
        }),
        get: (id) => Effect.map(liveTerms(id), (terms) => terms.entry),
        forForwarding: (id) =>
          Effect.flatMap(liveTerms(id), ({ entry, upstreamUrl, owner, sealedCredential }) => {
            if (sealedCredential === null) return Effect.succeed({ entry, upstreamUrl, upstreamCredential: Option.none() })
            const opened = credentials.open(entry.id, owner, sealedCredential)
            if (Option.isSome(opened)) return Effect.succeed({ entry, upstreamUrl, upstreamCredential: opened })
            // A wrong CREDENTIALS_KEY, or a sealed text moved or altered in the store: nothing is forwarded without it.
            return Effect.logError("a seller's upstream credential does not open under this gateway's key", { serviceId: entry.id }).pipe(
              Effect.andThen(Effect.fail(new Unavailable({
                message: "This service cannot be called through the gateway right now",
                reason: "upstream_credential_unreadable"
              })))
            )
          }),
        atRevision: (id, revision) =>
          Effect.flatMap(repo.findActivated(id, revision), (found) =>
            Option.match(found, { onNone: () => Effect.fail(notFound()), onSome: (r) => Effect.succeed(entryOf(id, "live", r.revision, r)) })),
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
  ).pipe(Layer.provide(SellerCredentials.layer))
}
