import { createHash } from "node:crypto"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import {
  CreatedDelegatedSigner,
  type CreateDelegatedSigner,
  type DelegatedSignerView,
  type FinalizeResult,
  FinalizeResult as FinalizeResultSchema,
  type PreparedChange
} from "@gateway/domain/DelegatedSigner"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import { MODULE, nonceBytes, normalizeCoinType, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { Conflict, Invalid, NotFound, TxFailed, UnsupportedAsset, type Unavailable, type VerificationError } from "@gateway/domain/Errors"
import { expiryMs } from "@gateway/domain/ExpiresAt"
import { type PreparedGrantChange, PreparedGrantChange as PreparedGrantChangeSchema } from "@gateway/domain/Grant"
import { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { apply, canApply, type FinalizeAction, Transitions } from "@gateway/domain/SignerStateMachine"
import type { GrantStatus } from "@gateway/domain/SignerStatus"
import { ObjectId, type SuiAddress } from "@gateway/domain/SuiAddress"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import { AppConfig } from "../Config.ts"
import { type GrantDecision, type GrantRow, type LockedGrant, type SignerRow, SignerRepo } from "../repositories/SignerRepo.ts"
import { GrantVerification } from "./GrantVerification.ts"
import { newId } from "./NewId.ts"
import { Policies } from "./Policies.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { grantViewStatus, signerStatus, signerView } from "./SignerViews.ts"

const invalid = (reason: string) => new Invalid({ message: "The request is invalid", reason })
const notFound = (what: string) => new NotFound({ message: `No such ${what}`, reason: `unknown_${what.replace(/ /g, "_")}` })
const conflict = (reason: string) => new Conflict({ message: "The request conflicts with the current state", reason })

/** The canonical request a create's idempotency key stands for (the key itself excluded). */
const requestHash = (body: CreateDelegatedSigner) => {
  const { idempotencyKey: _, ...rest } = body
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex")
}

/**
 * Whether a transaction called create_policy_grant with exactly what was
 * prepared for this grant, its nonce (the grant id) included: a failed
 * transaction has no GrantCreated to tell whose create it was, only its call.
 */
const isCreateOf = (tx: ChainTransaction, pkg: SpendAccountPackage, signer: SignerRow, grant: GrantRow) => {
  const sameAddress = (value: unknown, expected: string) =>
    typeof value === "string" && normalizeSuiAddress(value) === normalizeSuiAddress(expected)
  const policyIds = (value: unknown) => (Array.isArray(value) ? value.map(String).sort().join(",") : undefined)
  return tx.calls.some((call) => {
    const [pool, nonce, , delegate, sessionCap, maxPerPayment, expiry, policies] = call.arguments
    return (sameAddress(call.package, pkg.publishedAt) || sameAddress(call.package, pkg.originalId)) && call.module === MODULE &&
      call.function === "create_policy_grant" && call.typeArguments[0] === normalizeCoinType(grant.coin_type) &&
      sameAddress(pool, grant.pool_id) && nonce === toHex(nonceBytes(grant.id)) && sameAddress(delegate, signer.agent_address) &&
      String(sessionCap) === grant.session_cap && String(maxPerPayment) === grant.max_per_payment &&
      String(expiry) === grant.expiry_ms && policyIds(policies) === signer.on_chain_policy_ids.map(String).sort().join(",")
  })
}

const encodeCreated = Schema.encodeSync(Schema.fromJsonString(CreatedDelegatedSigner))
const decodeCreated = Schema.decodeSync(Schema.fromJsonString(CreatedDelegatedSigner))

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
      const nowMs = Clock.currentTimeMillis

      const load = Effect.fnUntraced(function*(owner: SuiAddress, id: string) {
        const found = yield* repo.get(owner, id)
        if (Option.isNone(found)) return yield* notFound("delegated signer")
        return found.value
      })

      const replayOrConflict = (stored: { requestHash: string; createResponse: string }, hash: string) =>
        stored.requestHash === hash
          ? Effect.succeed({ ...decodeCreated(stored.createResponse), idempotentReplay: true })
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

        const now = yield* nowMs
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
        const before = query.cursor === undefined ? Option.none<number>() : Option.some(Number(Buffer.from(query.cursor, "base64url").toString()))
        if (Option.isSome(before) && !(Number.isSafeInteger(before.value) && before.value > 0)) {
          return yield* invalid("query.cursor: not a cursor this server issued")
        }
        const rows = yield* repo.list(owner, limit + 1, before)
        const now = yield* nowMs
        const page = rows.slice(0, limit)
        const last = page[page.length - 1]
        return {
          delegatedSigners: page.map((row) => signerView(row, now, config.pendingGrantTtlMs)),
          nextCursor: rows.length > limit && last !== undefined ? Buffer.from(String(last.signer.seq)).toString("base64url") : null
        }
      })

      const get = Effect.fn("Signers.get")(function*(owner: SuiAddress, id: DelegatedSignerId) {
        return signerView(yield* load(owner, id), yield* nowMs, config.pendingGrantTtlMs)
      })

      const manifest = Effect.fn("Signers.manifest")(function*(owner: SuiAddress, id: DelegatedSignerId) {
        const found = yield* load(owner, id)
        const now = yield* nowMs
        const live = found.grants.filter((g) => {
          const status = grantViewStatus(g, now, config.pendingGrantTtlMs)
          return g.grant_object_id !== null && (status === "active" || status === "paused" || status === "pausing")
        })
        if (live.length === 0) return yield* conflict("no_grant_of_this_signer_is_active")
        const versions = yield* Effect.forEach(live, (g) =>
          Effect.all([chain.sharedVersion(g.grant_object_id ?? ""), chain.sharedVersion(g.pool_id)]))
        return Schema.decodeUnknownSync(ConnectionManifest)({
          version: 1,
          network: chain.network,
          packageId: chain.pkg.originalId,
          publishedAt: chain.pkg.publishedAt,
          registryId: chain.pkg.registryId,
          apiBaseUrl: publicUrl.origin,
          delegatedSignerId: found.signer.id,
          delegate: found.signer.agent_address,
          grants: live.map((g, i) => ({
            grantId: g.id,
            grantObjectId: g.grant_object_id,
            grantInitialSharedVersion: String(versions[i]?.[0]),
            pool: g.pool_id,
            poolInitialSharedVersion: String(versions[i]?.[1]),
            coinType: g.coin_type,
            sessionCap: g.session_cap,
            maxPerPayment: g.max_per_payment,
            expiry: g.expiry_ms
          })),
          policy: found.signer.policy_rules
        })
      })

      /**
       * A prepare step: picks the grants the change applies to, builds one kind
       * each, and only then moves them, so a chain fault writes nothing.
       */
      const prepare = Effect.fnUntraced(function*(
        owner: SuiAddress,
        id: DelegatedSignerId,
        change: {
          readonly eligible: ReadonlyArray<GrantStatus>
          readonly to: GrantStatus
          readonly build: (grant: GrantRow & { grant_object_id: string }) => Effect.Effect<{ moveTarget: string; txKindBytes: string }, Unavailable | NotFound>
          /** Whether grants that never activated are abandoned (marked failed) by this step. */
          readonly abandonPending: boolean
        }
      ) {
        const found = yield* load(owner, id)
        const now = yield* nowMs
        const current = signerStatus(found.grants, now, config.pendingGrantTtlMs)
        if (current === "revoked" || current === "expired" || current === "failed") return yield* conflict(`signer_is_${current}`)
        if (change.to !== "revoking" && (current === "revoking" || current === "partially_revoked")) {
          return yield* conflict(`signer_is_${current}`)
        }
        const targets = found.grants.flatMap((g) => {
          const status = grantViewStatus(g, now, config.pendingGrantTtlMs)
          return g.grant_object_id !== null && status !== "expired" && change.eligible.includes(status) && status === g.status
            ? [{ ...g, grant_object_id: g.grant_object_id }]
            : []
        })
        const abandoned = change.abandonPending
          ? found.grants.filter((g) => canApply("abandon", g.status) && g.grant_object_id === null)
          : []
        if (targets.length === 0 && abandoned.length === 0) return yield* conflict(`no_grant_can_${change.to === "revoking" ? "be_revoked" : change.to === "pausing" ? "be_paused" : "be_resumed"}`)
        const kinds: ReadonlyArray<PreparedGrantChange> = yield* Effect.forEach(targets, (g) =>
          Effect.map(change.build(g), (kind) =>
            Schema.decodeUnknownSync(PreparedGrantChangeSchema)({
              grantId: g.id,
              asset: g.coin_type,
              grantObjectId: g.grant_object_id,
              moveTarget: kind.moveTarget,
              txKindBytes: kind.txKindBytes,
              sender: owner
            })))
        // Each grant moves only from the status read above; if a concurrent request moved one first,
        // nothing is written and no kind is handed out for a grant this step did not move.
        const moved = yield* repo.setStatuses({
          owner,
          signerId: id,
          changes: [
            ...targets.map((g) => ({ grantId: g.id, from: g.status, to: change.to })),
            ...abandoned.map((g) => ({ grantId: g.id, from: g.status, to: Transitions.abandon.to }))
          ],
          now: new Date(now)
        })
        if (!moved) return yield* conflict("grant_changed_concurrently")
        const after = yield* load(owner, id)
        return { status: signerStatus(after.grants, now, config.pendingGrantTtlMs), delegatedSignerId: id, grants: kinds }
      })

      const prepareRevoke = (owner: SuiAddress, id: DelegatedSignerId) =>
        prepare(owner, id, {
          eligible: Transitions.prepareRevoke.from,
          to: "revoking",
          build: (g) => chain.buildRevoke({ sender: owner, grantObjectId: g.grant_object_id }),
          abandonPending: true
        })

      const preparePause = (owner: SuiAddress, id: DelegatedSignerId) =>
        prepare(owner, id, {
          eligible: Transitions.preparePause.from,
          to: "pausing",
          build: (g) => chain.buildPause({ sender: owner, grantObjectId: g.grant_object_id, kind: g.kind }),
          abandonPending: false
        })

      const prepareResume = (owner: SuiAddress, id: DelegatedSignerId) =>
        prepare(owner, id, {
          eligible: Transitions.prepareResume.from,
          to: "paused",
          build: (g) => chain.buildResume({ sender: owner, grantObjectId: g.grant_object_id, kind: g.kind }),
          abandonPending: false
        })

      const digestElsewhere = () => conflict("digest_already_used_by_another_grant")

      /**
       * A create that failed on chain fails its grant, in one transaction that
       * records the digest, and answers TX_FAILED; the same digest again answers
       * the same. A failed transaction that was not this grant's create changes nothing.
       */
      const failCreate = Effect.fnUntraced(function*(
        owner: SuiAddress,
        found: { readonly signer: SignerRow; readonly grant: GrantRow },
        digest: string,
        failure: TxFailed,
        now: number
      ) {
        const tx = yield* chain.getTransaction(digest)
        if (!isCreateOf(tx, chain.pkg, found.signer, found.grant)) return yield* failure
        const result = yield* repo.transition({
          owner,
          signerId: found.signer.id,
          grantId: found.grant.id,
          digest,
          action: "failCreate",
          now: new Date(now),
          decide: (locked): GrantDecision<Conflict> => {
            if (locked.digestUsedElsewhere) return { _tag: "Refuse", error: digestElsewhere() }
            if (Option.isSome(locked.recordedAction)) {
              return locked.recordedAction.value === "failCreate"
                ? { _tag: "Keep" }
                : { _tag: "Refuse", error: conflict("digest_already_used_for_another_change") }
            }
            // A grant that already moved on (activated by another digest, or failed) keeps its state: this digest only failed.
            return canApply("failCreate", locked.grant.status) ? { _tag: "Apply", status: Transitions.failCreate.to } : { _tag: "Keep" }
          }
        })
        if (result._tag === "NotFound") return yield* notFound("grant")
        if (result._tag === "Refused") return yield* result.error
        if (result._tag === "DigestTaken") return yield* digestElsewhere()
        return yield* failure
      })

      const finalize = Effect.fn("Signers.finalize")(function*(
        owner: SuiAddress,
        action: FinalizeAction,
        id: DelegatedSignerId,
        grantId: GrantId,
        digest: string
      ) {
        const found = yield* load(owner, id)
        const grant = found.grants.find((g) => g.id === grantId)
        if (grant === undefined) return yield* notFound("grant")
        const now = yield* nowMs
        const answer = (row: GrantRow, grants: ReadonlyArray<GrantRow>, alreadyFinalized: boolean): FinalizeResult =>
          Schema.decodeUnknownSync(FinalizeResultSchema)({
            delegatedSignerId: id,
            grantId,
            asset: row.coin_type,
            grantObjectId: row.grant_object_id,
            alreadyFinalized,
            status: row.status,
            signerStatus: signerStatus(grants, now, config.pendingGrantTtlMs)
          })
        // A digest this owner already recorded answers from the store: a retry needs no chain, and one digest moves one grant once.
        // Another owner's digests are not looked at: verification refuses them, and the UNIQUE key still guards the write.
        const recorded = yield* repo.findTransition(owner, digest)
        if (Option.isSome(recorded)) {
          if (recorded.value.grantId !== grantId) return yield* digestElsewhere()
          if (recorded.value.action === action) {
            // Reload: the transition that recorded the digest may have committed after the first read.
            const current = yield* load(owner, id)
            const bound = current.grants.find((g) => g.id === grantId)
            if (bound === undefined) return yield* notFound("grant")
            return answer(bound, current.grants, true)
          }
          // A failed create is verified again below: the chain keeps answering TX_FAILED for it.
          if (recorded.value.action !== "failCreate" || action !== "finalizeCreate") {
            return yield* conflict("digest_already_used_for_another_change")
          }
        }
        // Verify on chain before anything is written; a fault here leaves the state as it was.
        const facts = yield* verification.verify(action, { owner, signer: found.signer, grant }, digest).pipe(
          Effect.catchIf(
            (error): error is TxFailed => error instanceof TxFailed && action === "finalizeCreate",
            (failure) => failCreate(owner, { signer: found.signer, grant }, digest, failure, now)
          )
        )
        const decide = (locked: LockedGrant): GrantDecision<Conflict> => {
          if (locked.digestUsedElsewhere) return { _tag: "Refuse", error: digestElsewhere() }
          if (Option.isSome(locked.recordedAction)) {
            return locked.recordedAction.value === action
              ? { _tag: "Keep" }
              : { _tag: "Refuse", error: conflict("digest_already_used_for_another_change") }
          }
          // Failed is terminal: a grant whose create window closed without a verified create stays failed, even if a
          // create executed in time is reported after it (docs/decisions.md, "Single-use, deadlined creates").
          const viewed = grantViewStatus(locked.grant, now, config.pendingGrantTtlMs)
          if (viewed === "expired" || viewed === "failed") return { _tag: "Refuse", error: conflict(`grant_is_${viewed}`) }
          const next = apply(action, locked.grant.status)
          if (next === undefined) return { _tag: "Refuse", error: conflict(`grant_is_${locked.grant.status}`) }
          return facts.grantObjectId === undefined
            ? { _tag: "Apply", status: next }
            : { _tag: "Apply", status: next, grantObjectId: facts.grantObjectId }
        }
        const result = yield* repo.transition({ owner, signerId: id, grantId, digest, action, now: new Date(now), decide })
        if (result._tag === "NotFound") return yield* notFound("grant")
        if (result._tag === "Refused") return yield* result.error
        if (result._tag === "DigestTaken") return yield* digestElsewhere()
        const after = yield* load(owner, id)
        return answer(result.grant, after.grants, result._tag === "Kept")
      })

      return Signers.of({ create, list, get, manifest, prepareRevoke, preparePause, prepareResume, finalize })
    })
  )
}
