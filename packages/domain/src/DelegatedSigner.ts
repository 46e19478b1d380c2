import { Schema } from "effect"
import { AssetScope } from "./AssetScope.ts"
import { Grant, GrantView, OnChainPolicyId, PreparedGrant, PreparedGrantChange } from "./Grant.ts"
import { DelegatedSignerId, GrantId, PolicyId, ProfileId } from "./Ids.ts"
import { GrantStatus, SignerStatus } from "./SignerStatus.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"
import { CoinType } from "./CoinType.ts"
import { normalizeCoinType } from "./chain/SpendAccountModule.ts"

/** Bounds the spec leaves open (docs/decisions.md). */
export const Limits = {
  nameLength: 100,
  assetScopes: 16,
  idsPerList: 32,
  idempotencyKeyLength: 200
} as const

export const IdempotencyKey = Schema.String.pipe(
  Schema.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.idempotencyKeyLength))
)

export const CreateDelegatedSigner = Schema.Struct({
  agentAddress: SuiAddress,
  name: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(Limits.nameLength)))),
  profileIds: Schema.optionalKey(Schema.Array(ProfileId).pipe(Schema.check(Schema.isMaxLength(Limits.idsPerList)))),
  policyIds: Schema.optionalKey(Schema.Array(PolicyId).pipe(Schema.check(Schema.isMaxLength(Limits.idsPerList)))),
  assetScopes: Schema.Array(AssetScope).pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.assetScopes)),
    Schema.check(
      Schema.makeFilter((scopes) => {
        // `0x2::sui::SUI` and its zero-padded form name one pool, so they compare normalized.
        const seen = new Set<string>()
        for (const [i, scope] of scopes.entries()) {
          const coinType = normalizeCoinType(scope.asset)
          if (seen.has(coinType)) return { path: [i, "asset"], issue: "duplicate asset: one scope per coin type" }
          seen.add(coinType)
        }
        return true
      })
    )
  ),
  idempotencyKey: Schema.optionalKey(IdempotencyKey)
})
export type CreateDelegatedSigner = typeof CreateDelegatedSigner.Type

export const CreatedDelegatedSigner = Schema.Struct({
  status: SignerStatus,
  delegatedSignerId: DelegatedSignerId,
  agentAddress: SuiAddress,
  name: Schema.String,
  method: Schema.Literal("delegated_key"),
  idempotentReplay: Schema.Boolean,
  grants: Schema.Array(PreparedGrant)
})
export type CreatedDelegatedSigner = typeof CreatedDelegatedSigner.Type

export const DelegatedSignerView = Schema.Struct({
  id: DelegatedSignerId,
  name: Schema.String,
  agentAddress: SuiAddress,
  method: Schema.Literal("delegated_key"),
  status: SignerStatus,
  profileIds: Schema.Array(ProfileId),
  policyIds: Schema.Array(PolicyId),
  grants: Schema.Array(GrantView),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type DelegatedSignerView = typeof DelegatedSignerView.Type

export const DelegatedSignerList = Schema.Struct({
  delegatedSigners: Schema.Array(DelegatedSignerView),
  nextCursor: Schema.NullOr(Schema.String)
})

export const DelegatedSignerEnvelope = Schema.Struct({ delegatedSigner: DelegatedSignerView })

/** Revoke, pause and resume prepare share one shape. */
export const PreparedChange = Schema.Struct({
  status: SignerStatus,
  delegatedSignerId: DelegatedSignerId,
  grants: Schema.Array(PreparedGrantChange)
})
export type PreparedChange = typeof PreparedChange.Type

export const FinalizeRequest = Schema.Struct({
  digest: Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { expected: "a base58 transaction digest" }))
  )
})

/** Every finalize (create, revoke, pause, resume) answers in this shape. */
export const FinalizeResult = Schema.Struct({
  delegatedSignerId: DelegatedSignerId,
  grantId: GrantId,
  asset: CoinType,
  grantObjectId: ObjectId,
  alreadyFinalized: Schema.Boolean,
  status: GrantStatus,
  signerStatus: SignerStatus
})
export type FinalizeResult = typeof FinalizeResult.Type

export const ListQuery = Schema.Struct({
  limit: Schema.optionalKey(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
  ),
  cursor: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))))
})

/**
 * The delegated signer aggregate: the signer and every grant it holds, as
 * stored. Statuses that depend on time (expiry, the pending window) are never
 * stored but read through `signer/SignerView.ts`.
 */
export const DelegatedSigner = Schema.Struct({
  id: DelegatedSignerId,
  /** Creation order, for paging. */
  seq: Schema.BigInt,
  owner: SuiAddress,
  agentAddress: SuiAddress,
  name: Schema.String,
  profileIds: Schema.Array(ProfileId),
  policyIds: Schema.Array(PolicyId),
  onChainPolicyIds: Schema.Array(OnChainPolicyId),
  /** The policy snapshot taken at create, handed to the agent in its manifest. */
  policyRules: Schema.Array(Schema.Unknown),
  createdAtMs: Schema.Number,
  updatedAtMs: Schema.Number,
  grants: Schema.Array(Grant)
})
export type DelegatedSigner = typeof DelegatedSigner.Type
