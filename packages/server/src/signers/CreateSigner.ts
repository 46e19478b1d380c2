import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { MAX_RECIPIENTS } from "@gateway/domain/chain/SpendAccountModule"
import type { CreateDelegatedSigner, CreatedDelegatedSigner } from "@gateway/domain/DelegatedSigner"
import { UnsupportedAsset } from "@gateway/domain/Errors"
import { expiryMs } from "@gateway/domain/ExpiresAt"
import { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { onChainRecipients } from "@gateway/domain/signer/OnChainRecipients"
import { statusAt } from "@gateway/domain/signer/SignerView"
import { storedWindowOf, windowTermsOf } from "@gateway/domain/SpendingWindow"
import { ObjectId, type SuiAddress } from "@gateway/domain/SuiAddress"
import { type PolicySnapshot, Policies } from "../owners/Policies.ts"
import { newId } from "../storage/NewId.ts"
import { currentReadAt } from "./CurrentReadAt.ts"
import { conflict, invalid } from "./SignerErrors.ts"
import type { StoredCreate } from "./SignerReads.ts"
import { SignerRepo } from "./SignerRepo.ts"

/** The canonical request a create's idempotency key stands for (the key itself excluded). */
const requestHash = (body: CreateDelegatedSigner) => {
  const { idempotencyKey: _, ...rest } = body
  return createHash("sha256").update(JSON.stringify(rest)).digest("hex")
}

/**
 * A replay answers the create the key stands for (its kinds are what the owner signs) with the
 * signer's status as it is now, so it never reports a signer awaiting a signature it already has.
 */
const replayOrConflict = (stored: StoredCreate, hash: string) =>
  stored.requestHash === hash
    ? Effect.map(currentReadAt, (at) => ({ ...stored.createResponse, status: statusAt(stored.signer, at), idempotentReplay: true }))
    : Effect.fail(conflict("idempotency_key_reused_with_a_different_body"))

/** What every grant of one create shares. */
interface GrantTerms {
  readonly owner: SuiAddress
  readonly delegate: SuiAddress
  readonly snapshot: PolicySnapshot
  readonly deadlineMs: bigint
}

/**
 * Each scope's on-chain recipient list, compiled from the snapshot; more than the module's bound
 * is INVALID before anything is built or written.
 */
const recipientsPerScope = (snapshot: PolicySnapshot, scopes: CreateDelegatedSigner["assetScopes"]) =>
  Effect.forEach(scopes, (scope, i) => {
    const compiled = onChainRecipients(snapshot.rules, scope.asset)
    switch (compiled._tag) {
      case "Listed":
        return Effect.succeed(compiled.recipients)
      case "TooMany":
        return Effect.fail(invalid(
          `body.assetScopes.${i}.asset: the attached policies allow ${compiled.count} recipients for ${scope.asset}; a grant lists at most ${MAX_RECIPIENTS} on chain (MAX_RECIPIENTS): narrow the policies' recipients or leave them open`
        ))
      case "AssetNotAllowed":
        return Effect.fail(invalid(
          `body.assetScopes.${i}.asset: no attached policy allows ${scope.asset}, so the grant could pay nothing through the gateway while on chain it would pay anyone: attach a policy that allows it, or drop the scope`
        ))
    }
  })

/** One asset scope's grant: its create kind, built against the owner's pool of that asset. */
const prepareGrant = Effect.fnUntraced(function*(
  { owner, delegate, snapshot, deadlineMs }: GrantTerms,
  scope: CreateDelegatedSigner["assetScopes"][number],
  recipients: ReadonlyArray<string>,
  i: number
) {
  const chain = yield* Chain
  const pool = yield* chain.findPool(owner, scope.asset)
  if (Option.isNone(pool)) {
    return yield* new UnsupportedAsset({
      message: `You have no spend account for ${scope.asset}`,
      reason: `body.assetScopes.${i}.asset: no spend account (pool) for this coin type; create one with POST /v1/spend-accounts/prepare`
    })
  }
  const grantId = GrantId.make(newId("g"))
  const expiry = expiryMs(scope.expiresAt)
  const window = windowTermsOf(scope.window)
  const prepared = yield* chain.buildCreateGrant({
    sender: owner,
    pool: pool.value,
    grantId,
    deadlineMs,
    delegate,
    sessionCap: BigInt(scope.totalBudgetAtomic),
    maxPerPayment: BigInt(scope.maxPerPaymentAtomic),
    expiryMs: expiry,
    window,
    recipients,
    policyIds: snapshot.onChainPolicyIds.map(BigInt)
  })
  const stored = { window: storedWindowOf(window), recipients }
  return {
    stored,
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
})

export const createSigner = Effect.fn("Signers.create")(function*(owner: SuiAddress, headerKey: string | undefined, body: CreateDelegatedSigner) {
  const repo = yield* SignerRepo
  const policies = yield* Policies
  if (headerKey !== undefined && body.idempotencyKey !== undefined && headerKey !== body.idempotencyKey) {
    return yield* invalid("headers.idempotency-key: differs from body.idempotencyKey")
  }
  const key = headerKey ?? body.idempotencyKey
  if (key === undefined) return yield* invalid("body.idempotencyKey: an idempotency key is required (header Idempotency-Key or body)")
  const hash = requestHash(body)
  const existing = yield* repo.findByIdempotencyKey(owner, key)
  if (Option.isSome(existing)) return yield* replayOrConflict(existing.value, hash)

  const { nowMs: now, pendingTtlMs } = yield* currentReadAt
  for (const [i, scope] of body.assetScopes.entries()) {
    const expiry = expiryMs(scope.expiresAt)
    if (expiry !== 0n && expiry <= BigInt(now)) return yield* invalid(`body.assetScopes.${i}.expiresAt: must be in the future`)
  }
  const snapshot = yield* policies.resolve(owner, { policyIds: body.policyIds ?? [], profileIds: body.profileIds ?? [] })

  const signerId = DelegatedSignerId.make(newId("ds"))
  // The create kinds go stale with the pending window: a create executed after it aborts on chain.
  const terms: GrantTerms = { owner, delegate: body.agentAddress, snapshot, deadlineMs: BigInt(now + pendingTtlMs) }
  const recipients = yield* recipientsPerScope(snapshot, body.assetScopes)
  const prepared = yield* Effect.forEach(body.assetScopes, (scope, i) => prepareGrant(terms, scope, recipients[i] ?? [], i))
  const grants = prepared.map(({ stored: _, ...grant }) => grant)

  const response: CreatedDelegatedSigner = {
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
    createResponse: response,
    grants: prepared.map((g) => ({
      id: g.grantId,
      coinType: g.coinType,
      poolId: g.pool,
      sessionCap: g.caps.sessionCap,
      maxPerPayment: g.caps.maxPerPayment,
      expiryMs: g.expiry,
      window: g.stored.window,
      recipients: g.stored.recipients,
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
