import { createHash } from "node:crypto"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import {
  CreatedDelegatedSigner,
  type CreateDelegatedSigner,
  type DelegatedSigner,
  type DelegatedSignerView,
  type FinalizeResult,
  type PreparedChange
} from "@gateway/domain/DelegatedSigner"
import { Conflict, Invalid, NotFound, TxFailed, UnsupportedAsset, type Unavailable, type VerificationError } from "@gateway/domain/Errors"
import { expiryMs } from "@gateway/domain/ExpiresAt"
import type { PreparedGrantChange } from "@gateway/domain/Grant"
import { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { DIGEST_ELSEWHERE, decideFinalize, decideRecorded, digestRecordFor, type FinalizeStep } from "@gateway/domain/signer/DecideFinalize"
import { planPrepare, type PrepareChange } from "@gateway/domain/signer/PlanPrepare"
import { grantStatusAt, type ReadAt, statusAt, viewOf } from "@gateway/domain/signer/SignerView"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import { ObjectId, type SuiAddress } from "@gateway/domain/SuiAddress"
import { isCreateOf } from "@gateway/domain/verify/CreateCall"
import { AppConfig } from "../Config.ts"
import { SignerRepo } from "./SignerRepo.ts"
import { GrantVerification } from "./GrantVerification.ts"
import { newId } from "../storage/NewId.ts"
import { Policies } from "../owners/Policies.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"

const invalid = (reason: string) => new Invalid({ message: "The request is invalid", reason })
const notFound = (what: string) => new NotFound({ message: `No such ${what}`, reason: `unknown_${what.replace(/ /g, "_")}` })
const conflict = (reason: string) => new Conflict({ message: "The request conflicts with the current state", reason })

/** The canonical request a create's idempotency key stands for (the key itself excluded). */
const requestHash = (body: CreateDelegatedSigner) => {
  const { idempotencyKey: _, ...rest } = body
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex")
}

const encodeCreated = Schema.encodeSync(Schema.fromJsonString(CreatedDelegatedSigner))
const decodeCreated = Schema.decodeSync(Schema.fromJsonString(CreatedDelegatedSigner))

/** Every finalize answers the grant and the signer as they stand after it. */
const finalizeAnswer = (signer: DelegatedSigner, grantId: GrantId, alreadyFinalized: boolean, at: ReadAt): Effect.Effect<FinalizeResult, NotFound | Conflict> => {
  const grant = signer.grants.find((g) => g.id === grantId)
  if (grant === undefined) return Effect.fail(notFound("grant"))
  // Only a grant whose create verified has an object; nothing else is ever finalized.
  if (grant.grantObjectId === null) return Effect.fail(conflict(`grant_is_${grant.status}`))
  return Effect.succeed({
    delegatedSignerId: signer.id,
    grantId,
    asset: grant.coinType,
    grantObjectId: grant.grantObjectId,
    alreadyFinalized,
    status: grant.status,
    signerStatus: statusAt(signer, at)
  })
}

export class Signers extends Context.Service<Signers, {
  create(owner: SuiAddress, headerKey: string | undefined, body: CreateDelegatedSigner): Effect.Effect<typeof CreatedDelegatedSigner.Type, Invalid | Conflict | UnsupportedAsset | Unavailable>
  list(owner: SuiAddress, query: { limit?: number; cursor?: string }): Effect.Effect<{ delegatedSigners: ReadonlyArray<DelegatedSignerView>; nextCursor: string | null }, Invalid | Unavailable>
  get(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<DelegatedSignerView, NotFound | Unavailable>
  manifest(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<ConnectionManifest, NotFound | Conflict | Unavailable>
  prepareRevoke(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  preparePause(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  prepareResume(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  finalize(owner: SuiAddress, action: FinalizeAction, id: DelegatedSignerId, grantId: GrantId, digest: string): Effect.Effect<FinalizeResult, NotFound | Conflict | Unavailable | VerificationError>
}>()("@gateway/server/Signers") {
  static readonly layer = Layer.effect(
    Signers,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const repo = yield* SignerRepo
      const policies = yield* Policies
      const chain = yield* Chain
      const verification = yield* GrantVerification
      const publicUrl = yield* PublicUrl
      const readAt = Effect.map(Clock.currentTimeMillis, (nowMs): ReadAt => ({ nowMs, pendingTtlMs: config.pendingGrantTtlMs }))

      const load = Effect.fnUntraced(function*(owner: SuiAddress, id: string) {
        const found = yield* repo.get(owner, id)
        if (Option.isNone(found)) return yield* notFound("delegated signer")
        return found.value
      })

      /**
       * A replay answers the create the key stands for (its kinds are what the owner signs) with the
       * signer's status as it is now, so it never reports a signer awaiting a signature it already has.
       */
      const replayOrConflict = (stored: { requestHash: string; createResponse: string; signer: DelegatedSigner }, hash: string) =>
        stored.requestHash === hash
          ? Effect.map(readAt, (at) => ({ ...decodeCreated(stored.createResponse), status: statusAt(stored.signer, at), idempotentReplay: true }))
          : Effect.fail(conflict("idempotency_key_reused_with_a_different_body"))

      const create = Effect.fn("Signers.create")(function*(owner: SuiAddress, headerKey: string | undefined, body: CreateDelegatedSigner) {
        if (headerKey !== undefined && body.idempotencyKey !== undefined && headerKey !== body.idempotencyKey) {
          return yield* invalid("headers.idempotency-key: differs from body.idempotencyKey")
        }
        const key = headerKey ?? body.idempotencyKey
        if (key === undefined) return yield* invalid("body.idempotencyKey: an idempotency key is required (header Idempotency-Key or body)")
        const hash = requestHash(body)
        const existing = yield* repo.findByIdempotencyKey(owner, key)
        if (Option.isSome(existing)) return yield* replayOrConflict(existing.value, hash)

        const now = (yield* readAt).nowMs
        for (const [i, scope] of body.assetScopes.entries()) {
          const expiry = expiryMs(scope.expiresAt)
          if (expiry !== 0n && expiry <= BigInt(now)) return yield* invalid(`body.assetScopes.${i}.expiresAt: must be in the future`)
        }
        const snapshot = yield* policies.resolve(owner, { policyIds: body.policyIds ?? [], profileIds: body.profileIds ?? [] })

        const signerId = DelegatedSignerId.make(newId("ds"))
        // The create kinds go stale with the pending window: a create executed after it aborts on chain.
        const deadlineMs = BigInt(now + config.pendingGrantTtlMs)
        const grants = yield* Effect.forEach(body.assetScopes, (scope, i) =>
          Effect.gen(function*() {
            const pool = yield* chain.findPool(owner, scope.asset)
            if (Option.isNone(pool)) {
              return yield* new UnsupportedAsset({
                message: `You have no spend account for ${scope.asset}`,
                reason: `body.assetScopes.${i}.asset: no spend account (pool) for this coin type; create one with POST /v1/spend-accounts/prepare`
              })
            }
            const grantId = GrantId.make(newId("g"))
            const expiry = expiryMs(scope.expiresAt)
            const prepared = yield* chain.buildCreateGrant({
              sender: owner,
              pool: pool.value,
              grantId,
              deadlineMs,
              delegate: body.agentAddress,
              sessionCap: BigInt(scope.totalBudgetAtomic),
              maxPerPayment: BigInt(scope.maxPerPaymentAtomic),
              expiryMs: expiry,
              policyIds: snapshot.onChainPolicyIds.map(BigInt)
            })
            return {
              grantId,
              asset: scope.asset,
              coinType: scope.asset,
              pool: ObjectId.make(pool.value.poolId),
              policyIds: snapshot.policyIds,
              onChainPolicyIds: snapshot.onChainPolicyIds,
              caps: { sessionCap: scope.totalBudgetAtomic, maxPerPayment: scope.maxPerPaymentAtomic },
              expiry: expiry.toString(),
              moveTarget: prepared.moveTarget,
              txKindBytes: prepared.txKindBytes,
              sender: owner
            }
          }))

        const response: typeof CreatedDelegatedSigner.Type = {
          status: "awaiting_owner_signature",
          delegatedSignerId: signerId,
          agentAddress: body.agentAddress,
          name: body.name ?? "",
          method: "delegated_key",
          idempotentReplay: false,
          grants
        }
        const inserted = yield* repo.insert({
          id: signerId,
          owner,
          agentAddress: body.agentAddress,
          name: response.name,
          profileIds: body.profileIds ?? [],
          policyIds: snapshot.policyIds,
          onChainPolicyIds: snapshot.onChainPolicyIds,
          policyRules: snapshot.rules,
          idempotencyKey: key,
          requestHash: hash,
          createResponse: encodeCreated(response),
          grants: grants.map((g) => ({
            id: g.grantId,
            coinType: g.coinType,
            poolId: g.pool,
            sessionCap: g.caps.sessionCap,
            maxPerPayment: g.caps.maxPerPayment,
            expiryMs: g.expiry,
            kind: 0
          })),
          now: new Date(now)
        })
        if (inserted) return response
        // Lost a race on the same key: answer as the winner's replay.
        const winner = yield* repo.findByIdempotencyKey(owner, key)
        if (Option.isNone(winner)) return yield* conflict("idempotency_key_in_flight")
        return yield* replayOrConflict(winner.value, hash)
      })

      const list = Effect.fn("Signers.list")(function*(owner: SuiAddress, query: { limit?: number; cursor?: string }) {
        const limit = query.limit ?? 50
        const cursor = query.cursor === undefined ? undefined : Buffer.from(query.cursor, "base64url").toString()
        // A positive safe integer, as every seq this server issues is.
        if (cursor !== undefined && !/^[1-9][0-9]{0,14}$/.test(cursor)) return yield* invalid("query.cursor: not a cursor this server issued")
        const signers = yield* repo.list(owner, limit + 1, Option.map(Option.fromNullishOr(cursor), BigInt))
        const at = yield* readAt
        const page = signers.slice(0, limit)
        const last = page[page.length - 1]
        return {
          delegatedSigners: page.map((signer) => viewOf(signer, at)),
          nextCursor: signers.length > limit && last !== undefined ? Buffer.from(last.seq.toString()).toString("base64url") : null
        }
      })

      const get = Effect.fn("Signers.get")(function*(owner: SuiAddress, id: DelegatedSignerId) {
        return viewOf(yield* load(owner, id), yield* readAt)
      })

      const manifest = Effect.fn("Signers.manifest")(function*(owner: SuiAddress, id: DelegatedSignerId) {
        const signer = yield* load(owner, id)
        const at = yield* readAt
        const live = signer.grants.flatMap((g) => {
          const status = grantStatusAt(g, at)
          return g.grantObjectId !== null && (status === "active" || status === "paused" || status === "pausing")
            ? [{ ...g, grantObjectId: g.grantObjectId }]
            : []
        })
        if (live.length === 0) return yield* conflict("no_grant_of_this_signer_is_active")
        const versions = yield* Effect.forEach(live, (g) => Effect.all([chain.sharedVersion(g.grantObjectId), chain.sharedVersion(g.poolId)]))
        return Schema.decodeUnknownSync(ConnectionManifest)({
          version: 1,
          network: chain.network,
          packageId: chain.pkg.originalId,
          publishedAt: chain.pkg.publishedAt,
          registryId: chain.pkg.registryId,
          apiBaseUrl: publicUrl.origin,
          delegatedSignerId: signer.id,
          delegate: signer.agentAddress,
          grants: live.map((g, i) => ({
            grantId: g.id,
            grantObjectId: g.grantObjectId,
            grantInitialSharedVersion: String(versions[i]?.[0]),
            pool: g.poolId,
            poolInitialSharedVersion: String(versions[i]?.[1]),
            coinType: g.coinType,
            sessionCap: g.sessionCap,
            maxPerPayment: g.maxPerPayment,
            expiry: g.expiryMs.toString()
          })),
          policy: signer.policyRules
        })
      })

      const builders = {
        revoke: (g: { readonly grantObjectId: ObjectId }, owner: SuiAddress) => chain.buildRevoke({ sender: owner, grantObjectId: g.grantObjectId }),
        pause: (g: { readonly grantObjectId: ObjectId; readonly kind: number }, owner: SuiAddress) =>
          chain.buildPause({ sender: owner, grantObjectId: g.grantObjectId, kind: g.kind }),
        resume: (g: { readonly grantObjectId: ObjectId; readonly kind: number }, owner: SuiAddress) =>
          chain.buildResume({ sender: owner, grantObjectId: g.grantObjectId, kind: g.kind })
      }

      /**
       * A prepare step: plans from the signer as read, builds one kind per
       * target, and only then moves the grants, so a chain fault writes nothing.
       */
      const prepare = (change: PrepareChange) =>
        Effect.fn(`Signers.prepare.${change}`)(function*(owner: SuiAddress, id: DelegatedSignerId) {
          const signer = yield* load(owner, id)
          const plan = planPrepare(signer, change, yield* readAt)
          if (plan._tag === "Refuse") return yield* conflict(plan.reason)
          const grants: ReadonlyArray<PreparedGrantChange> = yield* Effect.forEach(plan.targets, (g) =>
            Effect.map(builders[change](g, owner), (kind) => ({
              grantId: g.id,
              asset: g.coinType,
              grantObjectId: g.grantObjectId,
              moveTarget: kind.moveTarget,
              txKindBytes: kind.txKindBytes,
              sender: owner
            })))
          // Each grant moves only from the status read above; if a concurrent request moved one first,
          // nothing is written and no kind is handed out for a grant this step did not move.
          const at = yield* readAt
          const moved = yield* repo.setStatuses({ owner, signerId: id, changes: plan.moves, now: new Date(at.nowMs) })
          if (!moved) return yield* conflict("grant_changed_concurrently")
          return { status: statusAt(plan.after, at), delegatedSignerId: id, grants }
        })

      /** Writes a verified step under the lock: the signer as written, and whether it was already. */
      const record = Effect.fnUntraced(function*(
        owner: SuiAddress,
        id: DelegatedSignerId,
        grantId: GrantId,
        digest: string,
        step: FinalizeStep,
        grantObjectId: ObjectId | null,
        at: ReadAt
      ) {
        const result = yield* repo.transition({
          owner,
          signerId: id,
          grantId,
          digest,
          step,
          now: new Date(at.nowMs),
          decide: ({ signer, grant, record }) => decideFinalize({ signer, grant, step, record, grantObjectId, at })
        })
        switch (result._tag) {
          case "NotFound":
            return yield* notFound("grant")
          case "Refused":
            return yield* conflict(result.reason)
          case "DigestTaken": {
            // A concurrent finalize recorded this digest first: answer as its replay, or refuse as the record says.
            if (step === "failCreate") return yield* conflict(DIGEST_ELSEWHERE)
            const current = yield* repo.getWithDigest(owner, id, digest)
            if (Option.isNone(current)) return yield* notFound("delegated signer")
            const decided = decideRecorded(digestRecordFor(current.value.recorded, grantId), step)
            if (decided._tag === "Replay") return { signer: current.value.signer, already: true }
            return yield* conflict(decided._tag === "Refuse" ? decided.reason : DIGEST_ELSEWHERE)
          }
          case "Applied":
          case "Kept":
            return { signer: result.signer, already: result._tag === "Kept" }
        }
      })

      /**
       * Orchestration only: load the signer with the digest's record, fetch the
       * transaction once, verify, let the aggregate decide under the lock, answer.
       * A create that failed on chain fails its grant (only if the transaction
       * called create_policy_grant with exactly this grant's arguments) and answers TX_FAILED.
       */
      const finalize = Effect.fn("Signers.finalize")(function*(
        owner: SuiAddress,
        action: FinalizeAction,
        id: DelegatedSignerId,
        grantId: GrantId,
        digest: string
      ) {
        const found = yield* repo.getWithDigest(owner, id, digest)
        if (Option.isNone(found)) return yield* notFound("delegated signer")
        const { signer, recorded } = found.value
        const grant = signer.grants.find((g) => g.id === grantId)
        if (grant === undefined) return yield* notFound("grant")
        const at = yield* readAt
        // A digest this owner already recorded answers from the store: a retry needs no chain, and one digest moves one grant once.
        const before = decideRecorded(digestRecordFor(recorded, grantId), action)
        if (before._tag === "Refuse") return yield* conflict(before.reason)
        if (before._tag === "Replay") return yield* finalizeAnswer(signer, grantId, true, at)
        // Verify on chain before anything is written; a fault here leaves the state as it was.
        const tx = yield* chain.getTransaction(digest)
        const facts = yield* verification.verify(action, { signer, grant }, tx).pipe(
          Effect.catchIf(
            (error): error is TxFailed => error instanceof TxFailed && action === "finalizeCreate" && isCreateOf(tx, chain.pkg, signer, grant),
            (failure) => Effect.andThen(record(owner, id, grantId, digest, "failCreate", null, at), Effect.fail(failure))
          )
        )
        const written = yield* record(owner, id, grantId, digest, action, facts.grantObjectId, at)
        return yield* finalizeAnswer(written.signer, grantId, written.already, at)
      })

      return Signers.of({
        create,
        list,
        get,
        manifest,
        prepareRevoke: prepare("revoke"),
        preparePause: prepare("pause"),
        prepareResume: prepare("resume"),
        finalize
      })
    })
  )
}
