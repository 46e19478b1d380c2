import { Schema } from "effect"
import { described, documented, documentedNumberFromString, Example } from "./Doc.ts"
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
  agentAddress: described(SuiAddress, "The agent's Sui address: the delegate the grants will let pay."),
  name: Schema.optionalKey(documented(Schema.String.pipe(Schema.check(Schema.isMaxLength(Limits.nameLength))), "Your name for this signer; at most 100 characters.", "research agent")),
  profileIds: Schema.optionalKey(described(Schema.Array(ProfileId).pipe(Schema.check(Schema.isMaxLength(Limits.idsPerList))), "Profiles whose asset scopes and policies the signer starts from.")),
  policyIds: Schema.optionalKey(described(Schema.Array(PolicyId).pipe(Schema.check(Schema.isMaxLength(Limits.idsPerList))), "Your policies the grants are created under: which services, methods, paths, recipients and assets the agent may pay.")),
  assetScopes: described(Schema.Array(AssetScope).pipe(
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
  ), "What the agent may spend, one scope per coin type (1 to 16): each becomes one grant on chain with its own budget, per-payment cap, expiry and optional window."),
  idempotencyKey: Schema.optionalKey(documented(
    IdempotencyKey,
    "Repeat a create with the same key to get the same signer back instead of a second one (or send it as the Idempotency-Key header); 1 to 200 characters.",
    "create-research-agent-1"
  ))
})
export type CreateDelegatedSigner = typeof CreateDelegatedSigner.Type

export const CreatedDelegatedSigner = Schema.Struct({
  status: described(SignerStatus, "The signer's status, from its grants': awaiting_owner_signature until a grant's create transaction is finalized."),
  delegatedSignerId: described(DelegatedSignerId, "The new signer's id."),
  agentAddress: described(SuiAddress, "The agent's Sui address: the delegate the grants let pay."),
  name: documented(Schema.String, "The owner's name for this signer; empty when none was given.", "research agent"),
  method: documented(Schema.Literal("delegated_key"), "How the agent signs: its own key, as the grants' delegate.", "delegated_key"),
  idempotentReplay: documented(Schema.Boolean, "True when this answers a repeated request with the same idempotencyKey: nothing new was created.", false),
  grants: described(Schema.Array(PreparedGrant), "One prepared grant per asset scope: sign each one's transaction kind in the owner's wallet, execute it, then finalize with its digest.")
})
export type CreatedDelegatedSigner = typeof CreatedDelegatedSigner.Type

export const DelegatedSignerView = Schema.Struct({
  id: described(DelegatedSignerId, "The signer's id."),
  name: documented(Schema.String, "The owner's name for this signer; empty when none was given.", "research agent"),
  agentAddress: described(SuiAddress, "The agent's Sui address: the delegate the grants let pay."),
  method: documented(Schema.Literal("delegated_key"), "How the agent signs: its own key, as the grants' delegate.", "delegated_key"),
  status: described(
    SignerStatus,
    "The signer's status, from its grants': awaiting_owner_signature, partially_active, active, pausing, paused, revoking, partially_revoked, revoked, expired or failed."
  ),
  profileIds: described(Schema.Array(ProfileId), "The profiles the signer was created from."),
  policyIds: described(Schema.Array(PolicyId), "The owner's policies the signer's grants were created under."),
  grants: described(Schema.Array(GrantView), "The signer's grants, one per asset."),
  createdAt: documented(Schema.String, "When the signer was created (ISO 8601).", Example.isoTime),
  updatedAt: documented(Schema.String, "When it last changed (ISO 8601).", Example.isoTime)
})
export type DelegatedSignerView = typeof DelegatedSignerView.Type

export const DelegatedSignerList = Schema.Struct({
  delegatedSigners: described(Schema.Array(DelegatedSignerView), "The owner's signers on this page, newest first."),
  nextCursor: documented(Schema.NullOr(Schema.String), "Pass as cursor for the next page; null on the last page.", null)
})

export const DelegatedSignerEnvelope = Schema.Struct({ delegatedSigner: described(DelegatedSignerView, "The signer.") })

/** Revoke, pause and resume prepare share one shape. */
export const PreparedChange = Schema.Struct({
  status: described(SignerStatus, "The signer's status now; it changes when the prepared transactions are finalized."),
  delegatedSignerId: described(DelegatedSignerId, "The signer changed."),
  grants: described(Schema.Array(PreparedGrantChange), "One prepared change per grant: sign and execute each transaction kind, then finalize it with its digest.")
})
export type PreparedChange = typeof PreparedChange.Type

export const FinalizeRequest = Schema.Struct({
  digest: documented(
    Schema.String.pipe(
      Schema.check(Schema.isPattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/u, { expected: "a base58 transaction digest" }))
    ),
    "The digest (base58) of the transaction the owner executed from the prepared txKindBytes; the gateway reads and verifies it on chain.",
    Example.digest
  )
})

/** Every finalize (create, revoke, pause, resume) answers in this shape. */
export const FinalizeResult = Schema.Struct({
  delegatedSignerId: described(DelegatedSignerId, "The signer the grant belongs to."),
  grantId: described(GrantId, "The gateway's grant id."),
  asset: described(CoinType, "The grant's coin type."),
  grantObjectId: described(ObjectId, "The Grant object on chain."),
  alreadyFinalized: documented(Schema.Boolean, "True when this digest had been finalized before: nothing changed.", false),
  status: described(GrantStatus, "The grant's status after the change."),
  signerStatus: described(SignerStatus, "The signer's status after the change.")
})
export type FinalizeResult = typeof FinalizeResult.Type

export const ListQuery = Schema.Struct({
  limit: Schema.optionalKey(
    documentedNumberFromString(
      Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      "At most this many signers (1 to 200); absent: 50.",
      20
    )
  ),
  cursor: Schema.optionalKey(documented(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))), "A previous page's nextCursor.", "NDI"))
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
