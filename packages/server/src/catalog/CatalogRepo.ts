import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { type Activation, activateDraft } from "./ActivateDraft.ts"
import { countLive, findActivated, findService } from "./CatalogReads.ts"
import { addRevision, insertDraft } from "./DraftWrites.ts"
import { listLive, type LivePage } from "./LiveListing.ts"
import type { Revision, ServiceWithRevisions } from "./StoredService.ts"

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
  listLive(input: { q: string | undefined; limit: number; afterSeq: Option.Option<bigint> }): Effect.Effect<LivePage, Unavailable>
}>()("@gateway/server/CatalogRepo") {
  static readonly layer = Layer.effect(
    CatalogRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return CatalogRepo.of({
        insertDraft: insertDraft(sql),
        addRevision: addRevision(sql),
        activate: activateDraft(sql),
        find: findService(sql),
        findActivated: findActivated(sql),
        countLive: countLive(sql),
        listLive: listLive(sql)
      })
    })
  )
}
