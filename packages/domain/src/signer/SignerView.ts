import { rollWindow, windowEndMs, WindowKind, type GrantWindow } from "../chain/GrantWindow.ts"
import type { DelegatedSigner, DelegatedSignerView } from "../DelegatedSigner.ts"
import { atomic } from "../Amount.ts"
import { windowViewOf } from "../SpendingWindow.ts"
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

/** Grants' windows as the chain holds them, by grant object id: the truth for what was spent in the current window. */
export type WindowsOnChain = ReadonlyMap<string, GrantWindow>

/**
 * The current window's spending and end, rolled to now as `pay` would roll
 * it; none without a window, or for a grant whose object the chain did not answer.
 */
const currentWindow = (grant: Grant, windows: WindowsOnChain, nowMs: number) => {
  const onChain = grant.grantObjectId === null ? undefined : windows.get(grant.grantObjectId)
  if (grant.window.kind === WindowKind.none || onChain === undefined || onChain.kind === WindowKind.none) {
    return { spentThisWindowAtomic: null, windowResetsAt: null }
  }
  const current = rollWindow(onChain, BigInt(nowMs))
  return { spentThisWindowAtomic: atomic(current.spent), windowResetsAt: new Date(Number(windowEndMs(current))).toISOString() }
}

const grantView = (signer: DelegatedSigner, grant: Grant, at: ReadAt, windows: WindowsOnChain): GrantView => ({
  id: grant.id,
  asset: grant.coinType,
  coinType: grant.coinType,
  pool: grant.poolId,
  grantObjectId: grant.grantObjectId,
  status: grantStatusAt(grant, at),
  policyIds: signer.policyIds,
  onChainPolicyIds: signer.onChainPolicyIds,
  caps: { sessionCap: grant.sessionCap, maxPerPayment: grant.maxPerPayment },
  expiry: grant.expiryMs.toString(),
  window: windowViewOf(grant.window),
  recipients: grant.recipients,
  ...currentWindow(grant, windows, at.nowMs)
})

/** The objects of the signers' windowed grants on chain: the only ones whose window figures a view shows. */
export const windowedGrantObjects = (signers: ReadonlyArray<DelegatedSigner>): ReadonlyArray<string> =>
  signers.flatMap((s) => s.grants.flatMap((g) => g.window.kind !== WindowKind.none && g.grantObjectId !== null ? [g.grantObjectId] : []))

/** The signer as list and get answer it, with its grants' windows as the chain holds them. */
export const viewOf = (signer: DelegatedSigner, at: ReadAt, windows: WindowsOnChain = new Map()): DelegatedSignerView => ({
  id: signer.id,
  name: signer.name,
  agentAddress: signer.agentAddress,
  method: "delegated_key",
  status: statusAt(signer, at),
  profileIds: signer.profileIds,
  policyIds: signer.policyIds,
  grants: signer.grants.map((g) => grantView(signer, g, at, windows)),
  createdAt: new Date(signer.createdAtMs).toISOString(),
  updatedAt: new Date(signer.updatedAtMs).toISOString()
})
