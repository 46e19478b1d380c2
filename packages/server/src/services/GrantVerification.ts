import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Unavailable, VerificationError } from "@gateway/domain/Errors"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { verifyGrantCreated } from "@gateway/domain/verify/GrantCreatedVerifier"
import { verifyGrantPauseSet } from "@gateway/domain/verify/GrantPauseSetVerifier"
import { verifyGrantRevoked } from "@gateway/domain/verify/GrantRevokedVerifier"
import type { GrantRow, SignerRow } from "../repositories/SignerRepo.ts"

/** What verification established: for a create, the grant's object id on chain. */
export interface VerifiedFacts {
  readonly grantObjectId?: string
}

/**
 * Fetches a digest from the chain and judges it with the pure verifier for the
 * change being finalized, against what this service prepared.
 */
export class GrantVerification extends Context.Service<GrantVerification, {
  verify(
    action: FinalizeAction,
    prepared: { readonly owner: SuiAddress; readonly signer: SignerRow; readonly grant: GrantRow },
    digest: string
  ): Effect.Effect<VerifiedFacts, VerificationError | Unavailable>
}>()("@gateway/server/GrantVerification") {
  static readonly layer = Layer.effect(
    GrantVerification,
    Effect.gen(function*() {
      const chain = yield* Chain
      return GrantVerification.of({
        verify: Effect.fn("GrantVerification.verify")(function*(action, { owner, signer, grant }, digest) {
          const tx = yield* chain.getTransaction(digest)
          const objectId = grant.grant_object_id
          switch (action) {
            case "finalizeCreate":
              return yield* verifyGrantCreated({
                pkg: chain.pkg,
                grantId: grant.id,
                owner,
                delegate: signer.agent_address,
                poolId: grant.pool_id,
                coinType: grant.coin_type,
                sessionCap: BigInt(grant.session_cap),
                maxPerPayment: BigInt(grant.max_per_payment),
                expiryMs: BigInt(grant.expiry_ms),
                policyIds: signer.on_chain_policy_ids.map(BigInt)
              }, tx)
            case "finalizeRevoke":
              return yield* verifyGrantRevoked({ pkg: chain.pkg, owner, grantObjectId: objectId ?? "" }, tx)
            case "finalizePause":
            case "finalizeResume":
              return yield* verifyGrantPauseSet({
                pkg: chain.pkg,
                owner,
                grantObjectId: objectId ?? "",
                paused: action === "finalizePause"
              }, tx)
          }
        })
      })
    })
  )
}
