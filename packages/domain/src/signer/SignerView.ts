import type { DelegatedSigner, DelegatedSignerView } from "../DelegatedSigner.ts"
import type { Grant, GrantView } from "../Grant.ts"
import { aggregate, viewStatus } from "../SignerStateMachine.ts"
import type { GrantViewStatus, SignerStatus } from "../SignerStatus.ts"

/** When a grant is read, and how long a pending grant's create stays valid (config `PENDING_GRANT_TTL_MS`). */
export interface ReadAt {
  readonly nowMs: number
  readonly pendingTtlMs: number
}

/**
 * A grant's status at a moment: expiry and the pending window are applied on
 * read, so it is always current without a background job. A pending grant
 * whose create deadline (created + the pending window) has passed reads
 * `failed` for good: its create kind now aborts on chain (EDeadlinePassed).
 */
export const grantStatusAt = (grant: Grant, at: ReadAt): GrantViewStatus => {
  const status = viewStatus(grant.status, grant.expiryMs, at.nowMs)
  // Strictly after: the chain accepts a create whose Clock reads the deadline itself.
  return status === "pending" && grant.createdAtMs + at.pendingTtlMs < at.nowMs ? "failed" : status
}

/** The signer's aggregate status at a moment. */
export const statusAt = (signer: DelegatedSigner, at: ReadAt): SignerStatus =>
  aggregate(signer.grants.map((g) => grantStatusAt(g, at)))

const grantView = (signer: DelegatedSigner, grant: Grant, at: ReadAt): GrantView => ({
  id: grant.id,
  asset: grant.coinType,
  coinType: grant.coinType,
  pool: grant.poolId,
  grantObjectId: grant.grantObjectId,
  status: grantStatusAt(grant, at),
  policyIds: signer.policyIds,
  onChainPolicyIds: signer.onChainPolicyIds,
  caps: { sessionCap: grant.sessionCap, maxPerPayment: grant.maxPerPayment },
  expiry: grant.expiryMs.toString()
})

/** The signer as list and get answer it. */
export const viewOf = (signer: DelegatedSigner, at: ReadAt): DelegatedSignerView => ({
  id: signer.id,
  name: signer.name,
  agentAddress: signer.agentAddress,
  method: "delegated_key",
  status: statusAt(signer, at),
  profileIds: signer.profileIds,
  policyIds: signer.policyIds,
  grants: signer.grants.map((g) => grantView(signer, g, at)),
  createdAt: new Date(signer.createdAtMs).toISOString(),
  updatedAt: new Date(signer.updatedAtMs).toISOString()
})
