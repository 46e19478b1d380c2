import type { GrantStatus, GrantViewStatus, SignerStatus } from "./SignerStatus.ts"

/**
 * The signer and grant lifecycle as data. A grant moves only along these
 * edges; the aggregate status is never stored as a fact of its own but
 * derived from its grants, so the two cannot disagree.
 */
export const Transitions = {
  /** The create transaction verified on chain. */
  finalizeCreate: { from: ["pending"], to: "active" },
  /**
   * The grant's own create transaction failed on chain. `failed` is terminal:
   * a create kind carries a deadline and a single-use nonce, so the chain
   * itself refuses it once the grant reads failed.
   */
  failCreate: { from: ["pending"], to: "failed" },
  preparePause: { from: ["active", "pausing"], to: "pausing" },
  finalizePause: { from: ["pausing"], to: "paused" },
  /** Resume prepare changes nothing until the resume verifies on chain. */
  prepareResume: { from: ["paused"], to: "paused" },
  finalizeResume: { from: ["paused"], to: "active" },
  prepareRevoke: { from: ["active", "pausing", "paused", "revoking"], to: "revoking" },
  /** Revoking a signer whose grant never activated: nothing exists on chain to revoke. */
  abandon: { from: ["pending"], to: "failed" },
  finalizeRevoke: { from: ["revoking"], to: "revoked" }
} as const satisfies Record<string, { readonly from: ReadonlyArray<GrantStatus>; readonly to: GrantStatus }>

export type Transition = keyof typeof Transitions

/** The finalize actions, each confirming one on-chain event. */
export type FinalizeAction = "finalizeCreate" | "finalizePause" | "finalizeResume" | "finalizeRevoke"

export const canApply = (transition: Transition, status: GrantStatus): boolean => {
  const from: ReadonlyArray<GrantStatus> = Transitions[transition].from
  return from.includes(status)
}

export const apply = (transition: Transition, status: GrantStatus): GrantStatus | undefined =>
  canApply(transition, status) ? Transitions[transition].to : undefined

export const TERMINAL: ReadonlyArray<GrantViewStatus> = ["revoked", "failed", "expired"]

export const viewStatus = (status: GrantStatus, expiryMs: bigint, nowMs: number): GrantViewStatus =>
  expiryMs !== 0n && BigInt(nowMs) >= expiryMs && !TERMINAL.includes(status) ? "expired" : status

/**
 * The aggregate status of a signer from its grants' (view) statuses: it says
 * what can pay. Revocation dominates (it is terminal), then failure and
 * expiry when they cover every grant. A pending grant cannot pay, so it counts
 * only while no grant exists on chain (`awaiting_owner_signature`) or beside
 * one that can (`partially_active`); an active grant beside paused or pausing
 * ones makes the signer `partially_active`, never `paused`, so an owner's
 * pause cannot hide a grant able to pay (docs/decisions.md, "Signer aggregate").
 */
export const aggregate = (grants: ReadonlyArray<GrantViewStatus>): SignerStatus => {
  const count = (s: GrantViewStatus) => grants.filter((g) => g === s).length
  const all = (...s: ReadonlyArray<GrantViewStatus>) => grants.every((g) => s.includes(g))
  const revoked = count("revoked")
  if (count("revoking") > 0) return revoked > 0 ? "partially_revoked" : "revoking"
  if (revoked > 0) return all("revoked", "failed", "expired") ? "revoked" : "partially_revoked"
  if (all("failed")) return "failed"
  if (all("expired", "failed")) return "expired"
  const onChain = grants.filter((g) => g !== "failed" && g !== "expired" && g !== "pending")
  if (onChain.length === 0) return "awaiting_owner_signature"
  const active = count("active")
  if (active === 0) return count("pausing") > 0 ? "pausing" : "paused"
  return active === onChain.length && count("pending") === 0 ? "active" : "partially_active"
}
