import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import type { DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { VerificationError } from "@gateway/domain/Errors"
import type { Grant } from "@gateway/domain/Grant"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import { termsOfStored } from "@gateway/domain/SpendingWindow"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { verifyGrantCreated } from "@gateway/domain/verify/GrantCreatedVerifier"
import { verifyGrantPauseSet } from "@gateway/domain/verify/GrantPauseSetVerifier"
import { verifyGrantRevoked } from "@gateway/domain/verify/GrantRevokedVerifier"

/** What verification established: for a create, the grant's object id on chain. */
export interface VerifiedFacts {
  readonly grantObjectId: ObjectId | null
}

/**
 * Judges a fetched transaction with the pure verifier for the change being
 * finalized, against what this service prepared, under the chain's package.
 */
export class GrantVerification extends Context.Service<GrantVerification, {
  verify(
    action: FinalizeAction,
    prepared: { readonly signer: DelegatedSigner; readonly grant: Grant },
    tx: ChainTransaction
  ): Effect.Effect<VerifiedFacts, VerificationError>
}>()("@gateway/server/GrantVerification") {
  static readonly layer = Layer.effect(
    GrantVerification,
    Effect.gen(function*() {
      const { pkg } = yield* Chain
      return GrantVerification.of({
        verify: Effect.fn("GrantVerification.verify")(function*(action, { signer, grant }, tx) {
          const owner = signer.owner
          const grantObjectId = grant.grantObjectId ?? ""
          switch (action) {
            case "finalizeCreate": {
              const created = yield* verifyGrantCreated({
                pkg,
                grantId: grant.id,
                owner,
                delegate: signer.agentAddress,
                poolId: grant.poolId,
                coinType: grant.coinType,
                sessionCap: BigInt(grant.sessionCap),
                maxPerPayment: BigInt(grant.maxPerPayment),
                expiryMs: grant.expiryMs,
                window: termsOfStored(grant.window),
                recipients: grant.recipients,
                policyIds: signer.onChainPolicyIds.map(BigInt)
              }, tx)
              return { grantObjectId: ObjectId.make(created.grantObjectId) }
            }
            case "finalizeRevoke":
              yield* verifyGrantRevoked({ pkg, owner, grantObjectId }, tx)
              return { grantObjectId: null }
            case "finalizePause":
            case "finalizeResume":
              yield* verifyGrantPauseSet({ pkg, owner, grantObjectId, paused: action === "finalizePause" }, tx)
              return { grantObjectId: null }
          }
        })
      })
    })
  )
}
