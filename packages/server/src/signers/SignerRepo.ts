import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PayingGrant } from "@gateway/domain/payment/PayingGrant"
import type { RecordedDigest } from "@gateway/domain/signer/DecideFinalize"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { type TransitionInput, type TransitionResult, transitionGrant } from "./GrantTransition.ts"
import { insertSigner, type NewSigner } from "./InsertSigner.ts"
import { findCreateKinds, type PendingKinds } from "./PendingKinds.ts"
import { type StatusChanges, setGrantStatuses } from "./SetGrantStatuses.ts"
import { findByIdempotencyKey, findPayingGrant, findSigner, findSignerWithDigest, pageOfSigners, type StoredCreate } from "./SignerReads.ts"

/**
 * SQL for delegated signers, their grants and the digests that moved them.
 * Every read answers the whole aggregate in one statement; rows never leave.
 */
export class SignerRepo extends Context.Service<SignerRepo, {
  /** The create an idempotency key stands for, with the signer as it is now. */
  findByIdempotencyKey(owner: SuiAddress, key: string): Effect.Effect<Option.Option<StoredCreate>, Unavailable>
  /** Inserts signer and grants atomically; `false` when the owner's idempotency key is already taken. */
  insert(signer: NewSigner): Effect.Effect<boolean, Unavailable>
  get(owner: SuiAddress, id: string): Effect.Effect<Option.Option<DelegatedSigner>, Unavailable>
  /**
   * The signer with what a digest is recorded for among the owner's grants,
   * read together; another owner's digests stay invisible.
   */
  getWithDigest(owner: SuiAddress, id: string, digest: string): Effect.Effect<Option.Option<{ signer: DelegatedSigner; recorded: Option.Option<RecordedDigest> }>, Unavailable>
  list(owner: SuiAddress, limit: number, beforeSeq: Option.Option<bigint>): Effect.Effect<ReadonlyArray<DelegatedSigner>, Unavailable>
  /**
   * Locks every grant of the owner's signer, lets `decide` choose the grant's
   * next state from the signer and the digest's record read under that lock,
   * records the digest and answers the signer as written, all in one
   * transaction: the loser of a race reads the winner's result.
   */
  transition(input: TransitionInput): Effect.Effect<TransitionResult, Unavailable>
  /**
   * Moves grants between states without a digest (prepare steps), in one
   * transaction, each only from the exact state it was read in; `false`, with
   * nothing changed, when any grant had moved meanwhile.
   */
  setStatuses(input: StatusChanges): Effect.Effect<boolean, Unavailable>
  /** The grant bound to an on-chain grant object, with its signer's policy rules; none when this gateway did not provision it. */
  findPayingGrant(grantObjectId: string): Effect.Effect<Option.Option<PayingGrant>, Unavailable>
  /** The create kinds of the owner's signers' grants, by grant id, as their creates answered them. */
  createKinds(owner: SuiAddress, signerIds: ReadonlyArray<string>): Effect.Effect<PendingKinds, Unavailable>
}>()("@gateway/server/SignerRepo") {
  static readonly layer = Layer.effect(
    SignerRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return SignerRepo.of({
        findByIdempotencyKey: findByIdempotencyKey(sql),
        findPayingGrant: findPayingGrant(sql),
        insert: insertSigner(sql),
        get: findSigner(sql),
        getWithDigest: findSignerWithDigest(sql),
        list: pageOfSigners(sql),
        transition: transitionGrant(sql),
        setStatuses: setGrantStatuses(sql),
        createKinds: findCreateKinds(sql)
      })
    })
  )
}
