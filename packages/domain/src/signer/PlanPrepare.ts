import type { DelegatedSigner } from "../DelegatedSigner.ts"
import type { Grant } from "../Grant.ts"
import type { GrantId } from "../Ids.ts"
import { canApply, Transitions } from "../SignerStateMachine.ts"
import type { GrantStatus } from "../SignerStatus.ts"
import type { ObjectId } from "../SuiAddress.ts"
import { grantStatusAt, type ReadAt, statusAt } from "./SignerView.ts"

/** The owner's three prepare steps. */
export type PrepareChange = "revoke" | "pause" | "resume"

/** One grant moved by a prepare step, only from the status it was read in. */
export interface GrantMove {
  readonly grantId: GrantId
  readonly from: GrantStatus
  readonly to: GrantStatus
}

export type PreparePlan =
  | { readonly _tag: "Refuse"; readonly reason: string }
  | {
    readonly _tag: "Plan"
    /** The grants a kind is built for, each with its object on chain. */
    readonly targets: ReadonlyArray<Grant & { readonly grantObjectId: ObjectId }>
    readonly moves: ReadonlyArray<GrantMove>
    /** The signer once the moves are written. */
    readonly after: DelegatedSigner
  }

const steps = {
  revoke: { transition: "prepareRevoke", nothing: "no_grant_can_be_revoked" },
  pause: { transition: "preparePause", nothing: "no_grant_can_be_paused" },
  resume: { transition: "prepareResume", nothing: "no_grant_can_be_resumed" }
} as const

/** The signer with the moves applied. */
export const applyMoves = (signer: DelegatedSigner, moves: ReadonlyArray<GrantMove>, nowMs: number): DelegatedSigner => ({
  ...signer,
  updatedAtMs: moves.length === 0 ? signer.updatedAtMs : nowMs,
  grants: signer.grants.map((g) => {
    const move = moves.find((m) => m.grantId === g.id)
    return move === undefined ? g : { ...g, status: move.to }
  })
})

/**
 * What a prepare step does to a signer read at a moment: the grants it builds
 * a kind for and the moves it writes. Revoke also abandons grants that never
 * activated (nothing exists on chain to revoke); pause and resume leave them,
 * and a grant that activates later reads `partially_active` beside the paused
 * ones, so the owner's next pause includes it.
 */
export const planPrepare = (signer: DelegatedSigner, change: PrepareChange, at: ReadAt): PreparePlan => {
  const current = statusAt(signer, at)
  if (current === "revoked" || current === "expired" || current === "failed") return { _tag: "Refuse", reason: `signer_is_${current}` }
  if (change !== "revoke" && (current === "revoking" || current === "partially_revoked")) {
    return { _tag: "Refuse", reason: `signer_is_${current}` }
  }
  const { transition, nothing } = steps[change]
  const to = Transitions[transition].to
  const targets = signer.grants.flatMap((g) => {
    const status = grantStatusAt(g, at)
    // A grant that reads otherwise than it is stored (expired, or failed for its closed window) is left alone.
    return g.grantObjectId !== null && status === g.status && canApply(transition, status)
      ? [{ ...g, grantObjectId: g.grantObjectId }]
      : []
  })
  const abandoned = change === "revoke"
    ? signer.grants.filter((g) => canApply("abandon", g.status) && g.grantObjectId === null)
    : []
  if (targets.length === 0 && abandoned.length === 0) return { _tag: "Refuse", reason: nothing }
  const moves: ReadonlyArray<GrantMove> = [
    ...targets.map((g) => ({ grantId: g.id, from: g.status, to })),
    ...abandoned.map((g) => ({ grantId: g.id, from: g.status, to: Transitions.abandon.to }))
  ]
  return { _tag: "Plan", targets, moves, after: applyMoves(signer, moves, at.nowMs) }
}
