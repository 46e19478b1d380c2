import { Effect, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { grantStatusAt } from "@gateway/domain/signer/SignerView"
import { windowViewOf } from "@gateway/domain/SpendingWindow"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { currentReadAt } from "./CurrentReadAt.ts"
import { loadSigner } from "./LoadSigner.ts"
import { conflict } from "./SignerErrors.ts"

export const signerManifest = Effect.fn("Signers.manifest")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const chain = yield* Chain
  const publicUrl = yield* PublicUrl
  const signer = yield* loadSigner(owner, id)
  const at = yield* currentReadAt
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
      expiry: g.expiryMs.toString(),
      window: windowViewOf(g.window),
      recipients: g.recipients
    })),
    policy: signer.policyRules
  })
})
