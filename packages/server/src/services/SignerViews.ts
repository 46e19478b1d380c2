import type { DelegatedSignerView } from "@gateway/domain/DelegatedSigner"
import type { GrantView } from "@gateway/domain/Grant"
import { aggregate, type GrantViewStatus, viewStatus } from "@gateway/domain/SignerStateMachine"
import { Schema } from "effect"
import { DelegatedSignerView as DelegatedSignerViewSchema } from "@gateway/domain/DelegatedSigner"
import { type GrantRow, iso, type SignerRow, type SignerWithGrants } from "../repositories/SignerRepo.ts"

/** The Clock time after which this grant's create kind aborts: what `Signers.create` put on chain. */
const createDeadlineMs = (grant: GrantRow, pendingTtlMs: number) => new Date(iso(grant.created_at)).getTime() + pendingTtlMs

/**
 * How stored rows read at a moment: expiry and the pending window are applied
 * on read, so a grant's status is always current without a background job.
 * A pending grant whose create deadline (created + the pending window) has
 * passed reads `failed` for good: its create kind now aborts on chain
 * (EDeadlinePassed), and finalize refuses it (docs/decisions.md).
 */
export const grantViewStatus = (grant: GrantRow, nowMs: number, pendingTtlMs: number): GrantViewStatus => {
  const status = viewStatus(grant.status, BigInt(grant.expiry_ms), nowMs)
  // Strictly after: the chain accepts a create whose Clock reads the deadline itself.
  return status === "pending" && createDeadlineMs(grant, pendingTtlMs) < nowMs ? "failed" : status
}

export const signerStatus = (grants: ReadonlyArray<GrantRow>, nowMs: number, pendingTtlMs: number) =>
  aggregate(grants.map((g) => grantViewStatus(g, nowMs, pendingTtlMs)))

const grantView = (signer: SignerRow, grant: GrantRow, nowMs: number, pendingTtlMs: number): typeof GrantView.Encoded => ({
  id: grant.id,
  asset: grant.coin_type,
  coinType: grant.coin_type,
  pool: grant.pool_id,
  grantObjectId: grant.grant_object_id,
  status: grantViewStatus(grant, nowMs, pendingTtlMs),
  policyIds: signer.policy_ids,
  onChainPolicyIds: signer.on_chain_policy_ids,
  caps: { sessionCap: grant.session_cap, maxPerPayment: grant.max_per_payment },
  expiry: grant.expiry_ms
})

export const signerView = ({ signer, grants }: SignerWithGrants, nowMs: number, pendingTtlMs: number): DelegatedSignerView =>
  Schema.decodeUnknownSync(DelegatedSignerViewSchema)({
    id: signer.id,
    name: signer.name,
    agentAddress: signer.agent_address,
    method: "delegated_key",
    status: signerStatus(grants, nowMs, pendingTtlMs),
    profileIds: signer.profile_ids,
    policyIds: signer.policy_ids,
    grants: grants.map((g) => grantView(signer, g, nowMs, pendingTtlMs)),
    createdAt: iso(signer.created_at),
    updatedAt: iso(signer.updated_at)
  })
