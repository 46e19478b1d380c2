import { Schema } from "effect"
import { described, documented } from "./Doc.ts"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { DelegatedSignerId, GrantId } from "./Ids.ts"
import { PolicyRule } from "./Policy.ts"
import { SpendingWindowView } from "./SpendingWindow.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/** What an agent needs to pay through one grant. Non-secret by construction: it holds no key. */
export const ManifestGrant = Schema.Struct({
  grantId: described(GrantId, "The gateway's grant id."),
  grantObjectId: described(ObjectId, "The Grant object on chain the agent pays through."),
  /** Shared-object versions, so the agent can build its `pay` kind offline. */
  grantInitialSharedVersion: documented(Schema.String, "The Grant's initial shared version (a decimal string), for building pay offline.", "1234567"),
  pool: described(ObjectId, "The owner's Pool object the payments come from."),
  poolInitialSharedVersion: documented(Schema.String, "The Pool's initial shared version (a decimal string), for building pay offline.", "1234501"),
  coinType: described(CoinType, "The coin type this grant pays in."),
  sessionCap: described(AtomicAmount, "The grant's lifetime budget, in atomic units."),
  maxPerPayment: described(AtomicAmount, "The most one payment may be, in atomic units."),
  expiry: documented(Schema.String, "When the grant stops paying, in milliseconds since the epoch as a decimal string; \"0\" for never.", "1767225600000"),
  /**
   * The grant's window terms (null for none) and on-chain recipient list (empty for any). Optional so
   * manifests handed out before issue 25 still decode; the SDK reads the grant's window state from the chain anyway.
   */
  window: Schema.optionalKey(described(Schema.NullOr(SpendingWindowView), "The per-window limit, or null for none.")),
  recipients: Schema.optionalKey(described(Schema.Array(SuiAddress), "The only addresses the grant may pay; absent or empty for any."))
})

export const ConnectionManifest = Schema.Struct({
  version: documented(Schema.Literal(1), "The manifest format version.", 1),
  network: documented(Schema.String, "The chain, `sui:<network>`.", "sui:testnet"),
  /** The package's original id: the one its types and events are named under. */
  packageId: described(ObjectId, "The spend_account package's original id."),
  /** The id `pay` is called at: the package version in use, equal to `packageId` before any upgrade. */
  publishedAt: described(ObjectId, "The package id calls are made at."),
  /** The package's shared `Registry`, so the manifest names the whole `SpendAccountPackage`. */
  registryId: described(ObjectId, "The gateway's registry object on chain."),
  apiBaseUrl: documented(Schema.String, "The gateway's base URL (its public origin).", "https://gateway.example"),
  delegatedSignerId: described(DelegatedSignerId, "The signer this manifest is for."),
  delegate: described(SuiAddress, "The agent's Sui address, the grants' delegate."),
  grants: described(Schema.Array(ManifestGrant), "What the agent may pay with, one grant per asset."),
  policy: described(Schema.Array(PolicyRule), "The owner's policy rules the agent must keep to (the gateway enforces them too).")
})
export type ConnectionManifest = typeof ConnectionManifest.Type
