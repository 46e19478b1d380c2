import { Schema } from "effect"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { described, documented, Example } from "./Doc.ts"
import { GrantId, PolicyId } from "./Ids.ts"
import { GrantStatus, GrantViewStatus } from "./SignerStatus.ts"
import { SpendingWindowView, StoredWindow } from "./SpendingWindow.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

export const Caps = Schema.Struct({
  sessionCap: described(AtomicAmount, "The grant's total budget: the most it may ever pay, in atomic units of the asset (the scope's totalBudgetAtomic)."),
  maxPerPayment: described(AtomicAmount, "The most one payment may be, in atomic units of the asset.")
})
export type Caps = typeof Caps.Type

/** On-chain policy ids are u64 numbers on chain and integers in JSON. */
export const OnChainPolicyId = Schema.Number.annotate({ examples: [1] }).pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))

/** What a grant's fields mean, said once for the create, change, list and get answers. */
const GRANT = {
  asset: "The coin type the grant pays in.",
  coinType: "The same coin type as asset.",
  pool: "The owner's Pool object on chain for this coin type: the payments come out of it.",
  policyIds: "The owner's policies the grant was created under.",
  onChainPolicyIds: "The numbers those policies carry on chain, as the grant holds them.",
  caps: "The grant's total budget and per-payment cap, in atomic units of the asset.",
  expiry: "When the grant stops paying, in milliseconds since the epoch as a decimal string; \"0\" for never.",
  moveTarget: "The Move function the transaction kind calls, `<package>::spend_account::<function>`.",
  txKindBytes:
    "The TransactionKind (base64 BCS, no gas or sender) to sign and execute in the owner's wallet with sender as the sender (or have gas sponsored at POST /v1/sponsored-transactions); then finalize with its digest.",
  sender: "Who must sign and send the transaction: the owner."
} as const

/** A grant as the create response carries it: everything the owner needs to sign. */
export const PreparedGrant = Schema.Struct({
  grantId: described(GrantId, "The gateway's id of the new grant: finalize it at /v1/delegated-signers/{id}/grants/{grantId}/finalize."),
  asset: described(CoinType, GRANT.asset),
  coinType: described(CoinType, GRANT.coinType),
  pool: described(ObjectId, GRANT.pool),
  policyIds: described(Schema.Array(PolicyId), GRANT.policyIds),
  onChainPolicyIds: described(Schema.Array(OnChainPolicyId), GRANT.onChainPolicyIds),
  caps: described(Caps, GRANT.caps),
  expiry: documented(Schema.String, GRANT.expiry, "1767225600000"),
  moveTarget: documented(Schema.String, GRANT.moveTarget, Example.moveTarget),
  txKindBytes: documented(Schema.String, GRANT.txKindBytes, Example.base64),
  sender: described(SuiAddress, GRANT.sender)
})
export type PreparedGrant = typeof PreparedGrant.Type

/** A grant in revoke, pause and resume prepare responses. */
export const PreparedGrantChange = Schema.Struct({
  grantId: described(GrantId, "The gateway's id of the grant changed: finalize at /v1/delegated-signers/{id}/grants/{grantId}/<change>/finalize."),
  asset: described(CoinType, GRANT.asset),
  grantObjectId: described(ObjectId, "The Grant object on chain the transaction changes."),
  moveTarget: documented(Schema.String, GRANT.moveTarget, "0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d::spend_account::revoke_grant"),
  txKindBytes: documented(Schema.String, GRANT.txKindBytes, Example.base64),
  sender: described(SuiAddress, GRANT.sender)
})
export type PreparedGrantChange = typeof PreparedGrantChange.Type

/** A grant in list and get responses. */
export const GrantView = Schema.Struct({
  id: described(GrantId, "The gateway's grant id."),
  asset: described(CoinType, GRANT.asset),
  coinType: described(CoinType, GRANT.coinType),
  pool: described(ObjectId, GRANT.pool),
  grantObjectId: described(Schema.NullOr(ObjectId), "The Grant object on chain; null until its create is finalized."),
  status: described(
    GrantViewStatus,
    "The grant's status now: pending until its create is finalized, then active; pausing, paused, revoking and revoked as the owner changes it; failed when its create never took effect (a pending grant fails once its create's deadline has passed); expired once expiry has passed."
  ),
  policyIds: described(Schema.Array(PolicyId), GRANT.policyIds),
  onChainPolicyIds: described(Schema.Array(OnChainPolicyId), GRANT.onChainPolicyIds),
  caps: described(Caps, GRANT.caps),
  expiry: documented(Schema.String, GRANT.expiry, "1767225600000"),
  /** At most this much per period besides the total budget; null for none. */
  window: described(Schema.NullOr(SpendingWindowView), "At most this much may be paid per period, besides the total budget; null for no window."),
  /** The only recipients the chain lets the grant pay; empty for any. */
  recipients: described(Schema.Array(SuiAddress), "The only addresses the chain lets the grant pay (compiled from its policies); empty for any."),
  /**
   * Paid in the current window as the chain holds it (payments the gateway did not see included),
   * rolled to now; null without a window or before the grant is on chain.
   */
  spentThisWindowAtomic: documented(
    Schema.NullOr(AtomicAmount),
    "Paid in the current window, in atomic units, as the chain holds it (payments made elsewhere included), rolled to now; null without a window, before the grant is on chain, or when the chain did not answer.",
    AtomicAmount.make("250000")
  ),
  /** When the current window ends and the next starts afresh (ISO 8601); null as `spentThisWindowAtomic`. */
  windowResetsAt: documented(
    Schema.NullOr(Schema.String),
    "When the current window ends and the next starts afresh (ISO 8601); null whenever spentThisWindowAtomic is.",
    Example.isoTime
  ),
  /**
   * The create kind prepared for this grant, present only while it is pending, so a page reloaded
   * before the owner signed can still sign it (then finalize with its digest).
   */
  createTxKindBytes: Schema.optionalKey(Schema.String.annotate({
    description:
      "Present only while the grant is pending: the TransactionKind (base64 BCS) the create answered, for the owner to sign and execute with their address as sender, then finalize with its digest at POST /v1/delegated-signers/{id}/grants/{grantId}/finalize. It aborts on chain once the pending window has passed; the grant then reads failed and the field is gone.",
    examples: ["AAACAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQ=="]
  }))
})
export type GrantView = typeof GrantView.Type

/**
 * A grant as the signer aggregate holds it: one asset scope, its stored
 * lifecycle status, and the object it became on chain once its create verified.
 */
export const Grant = Schema.Struct({
  id: GrantId,
  coinType: CoinType,
  poolId: ObjectId,
  sessionCap: AtomicAmount,
  maxPerPayment: AtomicAmount,
  /** Milliseconds since the epoch; 0 for no expiry. */
  expiryMs: Schema.BigInt,
  /** The create's window arguments; kind 0 (none) for grants created without one. */
  window: StoredWindow,
  /** The recipients the create lists on chain, compiled from the policy snapshot; empty for any. */
  recipients: Schema.Array(SuiAddress),
  /** Which pause/resume functions apply: 0 for grants from create_policy_grant. */
  kind: Schema.Number,
  status: GrantStatus,
  grantObjectId: Schema.NullOr(ObjectId),
  createdAtMs: Schema.Number
})
export type Grant = typeof Grant.Type
