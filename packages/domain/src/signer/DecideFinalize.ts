import { Option } from "effect"
import type { DelegatedSigner } from "../DelegatedSigner.ts"
import type { Grant } from "../Grant.ts"
import type { GrantId } from "../Ids.ts"
import { apply, canApply, type FinalizeAction, Transitions } from "../SignerStateMachine.ts"
import type { GrantStatus } from "../SignerStatus.ts"
import type { ObjectId } from "../SuiAddress.ts"
import { grantStatusAt, type ReadAt } from "./SignerView.ts"

/** A finalize, or a create that failed on chain being recorded against its grant. */
export type FinalizeStep = FinalizeAction | "failCreate"

/** What the store holds for a digest, among the caller's own grants. */
export type DigestRecord =
  | { readonly _tag: "Unused" }
  | { readonly _tag: "Mine"; readonly action: string }
  | { readonly _tag: "Elsewhere" }

/** A digest recorded among the owner's grants: for which grant and which change (a digest moves one grant once). */
export interface RecordedDigest {
  readonly grantId: string
  readonly action: string
}

/** What a recorded digest is to one grant. */
export const digestRecordFor = (recorded: Option.Option<RecordedDigest>, grantId: string): DigestRecord =>
  Option.match(recorded, {
    onNone: (): DigestRecord => ({ _tag: "Unused" }),
    onSome: (r): DigestRecord => (r.grantId === grantId ? { _tag: "Mine", action: r.action } : { _tag: "Elsewhere" })
  })

export const DIGEST_ELSEWHERE = "digest_already_used_by_another_grant"
export const DIGEST_OTHER_CHANGE = "digest_already_used_for_another_change"

/**
 * Before the chain is asked: a digest already recorded answers from the store
 * (`Replay`), a failed create is judged by the chain again (`Verify`), and a
 * digest recorded for another grant or change is refused.
 */
export const decideRecorded = (
  record: DigestRecord,
  action: FinalizeAction
): { readonly _tag: "Verify" } | { readonly _tag: "Replay" } | { readonly _tag: "Refuse"; readonly reason: string } => {
  if (record._tag === "Unused") return { _tag: "Verify" }
  if (record._tag === "Elsewhere") return { _tag: "Refuse", reason: DIGEST_ELSEWHERE }
  if (record.action === action) return { _tag: "Replay" }
  // The chain keeps answering TX_FAILED for a failed create, so it is verified again.
  return record.action === "failCreate" && action === "finalizeCreate" ? { _tag: "Verify" } : { _tag: "Refuse", reason: DIGEST_OTHER_CHANGE }
}

export type FinalizeDecision =
  | { readonly _tag: "Apply"; readonly status: GrantStatus; readonly grantObjectId: ObjectId | null }
  | { readonly _tag: "Keep" }
  | { readonly _tag: "Refuse"; readonly reason: string }

export interface FinalizeInput {
  /** The signer with every grant as read under the lock. */
  readonly signer: DelegatedSigner
  readonly grant: Grant
  readonly step: FinalizeStep
  readonly record: DigestRecord
  /** For a verified create: the grant's object on chain. */
  readonly grantObjectId: ObjectId | null
  readonly at: ReadAt
}

/** Whether the owner already asked to revoke this signer: a sibling is revoking or revoked. */
const revocationAsked = (signer: DelegatedSigner, grantId: GrantId) =>
  signer.grants.some((g) => g.id !== grantId && (g.status === "revoking" || g.status === "revoked"))

/**
 * What a verified finalize does to its grant, decided from the signer read
 * under the lock, so a concurrent change is either seen here or waits.
 */
export const decideFinalize = (input: FinalizeInput): FinalizeDecision => {
  const { grant, record, step } = input
  if (record._tag === "Elsewhere") return { _tag: "Refuse", reason: DIGEST_ELSEWHERE }
  if (record._tag === "Mine") return record.action === step ? { _tag: "Keep" } : { _tag: "Refuse", reason: DIGEST_OTHER_CHANGE }
  if (step === "failCreate") {
    // A grant that already moved on (activated by another digest, or failed) keeps its state: this digest only failed.
    return canApply("failCreate", grant.status) ? { _tag: "Apply", status: Transitions.failCreate.to, grantObjectId: null } : { _tag: "Keep" }
  }
  // Failed is terminal: a grant whose create window closed without a verified create stays failed, even if a
  // create executed in time is reported after it (docs/decisions.md, "Single-use, deadlined creates").
  const viewed = grantStatusAt(grant, input.at)
  if (viewed === "expired" || viewed === "failed") return { _tag: "Refuse", reason: `grant_is_${viewed}` }
  const next = apply(step, grant.status)
  if (next === undefined) return { _tag: "Refuse", reason: `grant_is_${grant.status}` }
  // A create that lands after the owner asked to revoke the signer joins the revocation instead of paying.
  const status = step === "finalizeCreate" && revocationAsked(input.signer, grant.id) ? Transitions.prepareRevoke.to : next
  return { _tag: "Apply", status, grantObjectId: input.grantObjectId }
}

/** The signer after a decision is written. */
export const applyDecision = (signer: DelegatedSigner, grantId: GrantId, decision: FinalizeDecision, nowMs: number): DelegatedSigner =>
  decision._tag !== "Apply" ? signer : {
    ...signer,
    updatedAtMs: nowMs,
    grants: signer.grants.map((g) =>
      g.id === grantId ? { ...g, status: decision.status, grantObjectId: decision.grantObjectId ?? g.grantObjectId } : g
    )
  }
