import { Effect } from "effect"
import type { PreparedKind } from "@gateway/chain/Chain"
import type { NotFound, Unavailable } from "@gateway/domain/Errors"
import type { Grant, PreparedGrantChange } from "@gateway/domain/Grant"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { planPrepare, type PrepareChange } from "@gateway/domain/signer/PlanPrepare"
import { statusAt } from "@gateway/domain/signer/SignerView"
import type { ObjectId, SuiAddress } from "@gateway/domain/SuiAddress"
import { currentReadAt } from "./CurrentReadAt.ts"
import { loadSigner } from "./LoadSigner.ts"
import { conflict } from "./SignerErrors.ts"
import { SignerRepo } from "./SignerRepo.ts"

/** Builds the kind the owner signs to change one grant on chain. */
export type BuildChangeKind = (grant: Grant & { readonly grantObjectId: ObjectId }) => Effect.Effect<PreparedKind, Unavailable | NotFound>

/**
 * A prepare step: plans from the signer as read, builds one kind per
 * target, and only then moves the grants, so a chain fault writes nothing.
 */
export const prepareStep = Effect.fnUntraced(function*(change: PrepareChange, build: BuildChangeKind, owner: SuiAddress, id: DelegatedSignerId) {
  const repo = yield* SignerRepo
  const signer = yield* loadSigner(owner, id)
  const plan = planPrepare(signer, change, yield* currentReadAt)
  if (plan._tag === "Refuse") return yield* conflict(plan.reason)
  const grants: ReadonlyArray<PreparedGrantChange> = yield* Effect.forEach(plan.targets, (g) =>
    Effect.map(build(g), (kind) => ({
      grantId: g.id,
      asset: g.coinType,
      grantObjectId: g.grantObjectId,
      moveTarget: kind.moveTarget,
      txKindBytes: kind.txKindBytes,
      sender: owner
    })))
  // Each grant moves only from the status read above; if a concurrent request moved one first,
  // nothing is written and no kind is handed out for a grant this step did not move.
  const at = yield* currentReadAt
  const moved = yield* repo.setStatuses({ owner, signerId: id, changes: plan.moves, now: new Date(at.nowMs) })
  if (!moved) return yield* conflict("grant_changed_concurrently")
  return { status: statusAt(plan.after, at), delegatedSignerId: id, grants }
})
