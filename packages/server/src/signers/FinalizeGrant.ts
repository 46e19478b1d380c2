import { Effect, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { DelegatedSigner, FinalizeResult } from "@gateway/domain/DelegatedSigner"
import { type Conflict, type NotFound, TxFailed } from "@gateway/domain/Errors"
import type { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { DIGEST_ELSEWHERE, decideFinalize, decideRecorded, digestRecordFor, type FinalizeStep } from "@gateway/domain/signer/DecideFinalize"
import { type ReadAt, statusAt } from "@gateway/domain/signer/SignerView"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import type { ObjectId, SuiAddress } from "@gateway/domain/SuiAddress"
import { isCreateOf } from "@gateway/domain/verify/CreateCall"
import { currentReadAt } from "./CurrentReadAt.ts"
import { GrantVerification } from "./GrantVerification.ts"
import { conflict, notFound } from "./SignerErrors.ts"
import { SignerRepo } from "./SignerRepo.ts"

/** Every finalize answers the grant and the signer as they stand after it. */
const finalizeAnswer = (signer: DelegatedSigner, grantId: GrantId, alreadyFinalized: boolean, at: ReadAt): Effect.Effect<FinalizeResult, NotFound | Conflict> => {
  const grant = signer.grants.find((g) => g.id === grantId)
  if (grant === undefined) return Effect.fail(notFound("grant"))
  // Only a grant whose create verified has an object; nothing else is ever finalized.
  if (grant.grantObjectId === null) return Effect.fail(conflict(`grant_is_${grant.status}`))
  return Effect.succeed({
    delegatedSignerId: signer.id,
    grantId,
    asset: grant.coinType,
    grantObjectId: grant.grantObjectId,
    alreadyFinalized,
    status: grant.status,
    signerStatus: statusAt(signer, at)
  })
}

/** Writes a verified step under the lock: the signer as written, and whether it was already. */
const recordStep = Effect.fnUntraced(function*(
  owner: SuiAddress,
  id: DelegatedSignerId,
  grantId: GrantId,
  digest: string,
  step: FinalizeStep,
  grantObjectId: ObjectId | null,
  at: ReadAt
) {
  const repo = yield* SignerRepo
  const result = yield* repo.transition({
    owner,
    signerId: id,
    grantId,
    digest,
    step,
    now: new Date(at.nowMs),
    decide: ({ signer, grant, record }) => decideFinalize({ signer, grant, step, record, grantObjectId, at })
  })
  switch (result._tag) {
    case "NotFound":
      return yield* notFound("grant")
    case "Refused":
      return yield* conflict(result.reason)
    case "DigestTaken": {
      // A concurrent finalize recorded this digest first: answer as its replay, or refuse as the record says.
      if (step === "failCreate") return yield* conflict(DIGEST_ELSEWHERE)
      const current = yield* repo.getWithDigest(owner, id, digest)
      if (Option.isNone(current)) return yield* notFound("delegated signer")
      const decided = decideRecorded(digestRecordFor(current.value.recorded, grantId), step)
      if (decided._tag === "Replay") return { signer: current.value.signer, already: true }
      return yield* conflict(decided._tag === "Refuse" ? decided.reason : DIGEST_ELSEWHERE)
    }
    case "Applied":
    case "Kept":
      return { signer: result.signer, already: result._tag === "Kept" }
  }
})

/**
 * Orchestration only: load the signer with the digest's record, fetch the
 * transaction once, verify, let the aggregate decide under the lock, answer.
 * A create that failed on chain fails its grant (only if the transaction
 * called create_policy_grant with exactly this grant's arguments) and answers TX_FAILED.
 */
export const finalizeGrant = Effect.fn("Signers.finalize")(function*(
  owner: SuiAddress,
  action: FinalizeAction,
  id: DelegatedSignerId,
  grantId: GrantId,
  digest: string
) {
  const repo = yield* SignerRepo
  const chain = yield* Chain
  const verification = yield* GrantVerification
  const found = yield* repo.getWithDigest(owner, id, digest)
  if (Option.isNone(found)) return yield* notFound("delegated signer")
  const { signer, recorded } = found.value
  const grant = signer.grants.find((g) => g.id === grantId)
  if (grant === undefined) return yield* notFound("grant")
  const at = yield* currentReadAt
  // A digest this owner already recorded answers from the store: a retry needs no chain, and one digest moves one grant once.
  const before = decideRecorded(digestRecordFor(recorded, grantId), action)
  if (before._tag === "Refuse") return yield* conflict(before.reason)
  if (before._tag === "Replay") return yield* finalizeAnswer(signer, grantId, true, at)
  // Verify on chain before anything is written; a fault here leaves the state as it was.
  const tx = yield* chain.getTransaction(digest)
  const facts = yield* verification.verify(action, { signer, grant }, tx).pipe(
    Effect.catchIf(
      (error): error is TxFailed => error instanceof TxFailed && action === "finalizeCreate" && isCreateOf(tx, chain.pkg, signer, grant),
      (failure) => Effect.andThen(recordStep(owner, id, grantId, digest, "failCreate", null, at), Effect.fail(failure))
    )
  )
  const written = yield* recordStep(owner, id, grantId, digest, action, facts.grantObjectId, at)
  return yield* finalizeAnswer(written.signer, grantId, written.already, at)
})
