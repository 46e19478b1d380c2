import { Schema } from "effect"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { GrantId, PolicyId } from "./Ids.ts"
import { GrantStatus, GrantViewStatus } from "./SignerStatus.ts"
import { SpendingWindowView, StoredWindow } from "./SpendingWindow.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

export const Caps = Schema.Struct({
  sessionCap: AtomicAmount,
  maxPerPayment: AtomicAmount
})
export type Caps = typeof Caps.Type

/** On-chain policy ids are u64 numbers on chain and integers in JSON. */
export const OnChainPolicyId = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))

/** A grant as the create response carries it: everything the owner needs to sign. */
export const PreparedGrant = Schema.Struct({
  grantId: GrantId,
  asset: CoinType,
  coinType: CoinType,
  pool: ObjectId,
  policyIds: Schema.Array(PolicyId),
  onChainPolicyIds: Schema.Array(OnChainPolicyId),
  caps: Caps,
  expiry: Schema.String,
  moveTarget: Schema.String,
  txKindBytes: Schema.String,
  sender: SuiAddress
})
export type PreparedGrant = typeof PreparedGrant.Type

/** A grant in revoke, pause and resume prepare responses. */
export const PreparedGrantChange = Schema.Struct({
  grantId: GrantId,
  asset: CoinType,
  grantObjectId: ObjectId,
  moveTarget: Schema.String,
  txKindBytes: Schema.String,
  sender: SuiAddress
})
export type PreparedGrantChange = typeof PreparedGrantChange.Type

/** A grant in list and get responses. */
export const GrantView = Schema.Struct({
  id: GrantId,
  asset: CoinType,
  coinType: CoinType,
  pool: ObjectId,
  grantObjectId: Schema.NullOr(ObjectId),
  status: GrantViewStatus,
  policyIds: Schema.Array(PolicyId),
  onChainPolicyIds: Schema.Array(OnChainPolicyId),
  caps: Caps,
  expiry: Schema.String,
  /** At most this much per period besides the total budget; null for none. */
  window: Schema.NullOr(SpendingWindowView),
  /** The only recipients the chain lets the grant pay; empty for any. */
  recipients: Schema.Array(SuiAddress),
  /**
   * Paid in the current window as the chain holds it (payments the gateway did not see included),
   * rolled to now; null without a window or before the grant is on chain.
   */
  spentThisWindowAtomic: Schema.NullOr(AtomicAmount),
  /** When the current window ends and the next starts afresh (ISO 8601); null as `spentThisWindowAtomic`. */
  windowResetsAt: Schema.NullOr(Schema.String),
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
