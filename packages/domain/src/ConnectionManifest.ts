import { Schema } from "effect"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { DelegatedSignerId, GrantId } from "./Ids.ts"
import { PolicyRule } from "./Policy.ts"
import { SpendingWindowView } from "./SpendingWindow.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/** What an agent needs to pay through one grant. Non-secret by construction: it holds no key. */
export const ManifestGrant = Schema.Struct({
  grantId: GrantId,
  grantObjectId: ObjectId,
  /** Shared-object versions, so the agent can build its `pay` kind offline. */
  grantInitialSharedVersion: Schema.String,
  pool: ObjectId,
  poolInitialSharedVersion: Schema.String,
  coinType: CoinType,
  sessionCap: AtomicAmount,
  maxPerPayment: AtomicAmount,
  expiry: Schema.String,
  /**
   * The grant's window terms (null for none) and on-chain recipient list (empty for any). Optional so
   * manifests handed out before issue 25 still decode; the SDK reads the grant's window state from the chain anyway.
   */
  window: Schema.optionalKey(Schema.NullOr(SpendingWindowView)),
  recipients: Schema.optionalKey(Schema.Array(SuiAddress))
})

export const ConnectionManifest = Schema.Struct({
  version: Schema.Literal(1),
  network: Schema.String,
  /** The package's original id: the one its types and events are named under. */
  packageId: ObjectId,
  /** The id `pay` is called at: the package version in use, equal to `packageId` before any upgrade. */
  publishedAt: ObjectId,
  /** The package's shared `Registry`, so the manifest names the whole `SpendAccountPackage`. */
  registryId: ObjectId,
  apiBaseUrl: Schema.String,
  delegatedSignerId: DelegatedSignerId,
  delegate: SuiAddress,
  grants: Schema.Array(ManifestGrant),
  policy: Schema.Array(PolicyRule)
})
export type ConnectionManifest = typeof ConnectionManifest.Type
