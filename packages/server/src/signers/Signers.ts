import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type {
  CreatedDelegatedSigner,
  CreateDelegatedSigner,
  DelegatedSignerView,
  FinalizeResult,
  PreparedChange
} from "@gateway/domain/DelegatedSigner"
import type { Conflict, Invalid, NotFound, Unavailable, UnsupportedAsset, VerificationError } from "@gateway/domain/Errors"
import type { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { Policies } from "../owners/Policies.ts"
import { createSigner } from "./CreateSigner.ts"
import { finalizeGrant } from "./FinalizeGrant.ts"
import { getSigner } from "./GetSigner.ts"
import { GrantVerification } from "./GrantVerification.ts"
import { listSigners } from "./ListSigners.ts"
import { preparePause } from "./PreparePause.ts"
import { prepareResume } from "./PrepareResume.ts"
import { prepareRevoke } from "./PrepareRevoke.ts"
import { signerManifest } from "./SignerManifest.ts"
import { SignerRepo } from "./SignerRepo.ts"
import { withServices } from "../UseCase.ts"

/** What the use cases take from their context. */
type UseCaseServices = AppConfig | SignerRepo | Policies | Chain | GrantVerification | PublicUrl

export class Signers extends Context.Service<Signers, {
  create(owner: SuiAddress, headerKey: string | undefined, body: CreateDelegatedSigner): Effect.Effect<CreatedDelegatedSigner, Invalid | Conflict | UnsupportedAsset | Unavailable>
  list(owner: SuiAddress, query: { limit?: number; cursor?: string }): Effect.Effect<{ delegatedSigners: ReadonlyArray<DelegatedSignerView>; nextCursor: string | null }, Invalid | Unavailable>
  get(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<DelegatedSignerView, NotFound | Unavailable>
  manifest(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<ConnectionManifest, NotFound | Conflict | Unavailable>
  prepareRevoke(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  preparePause(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  prepareResume(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PreparedChange, NotFound | Conflict | Unavailable>
  finalize(owner: SuiAddress, action: FinalizeAction, id: DelegatedSignerId, grantId: GrantId, digest: string): Effect.Effect<FinalizeResult, NotFound | Conflict | Unavailable | VerificationError>
}>()("@gateway/server/Signers") {
  static readonly layer = Layer.effect(
    Signers,
    Effect.gen(function*() {
      // Only these services, so each call keeps its own clock, tracer and parent span.
      const services = Context.pick(AppConfig, SignerRepo, Policies, Chain, GrantVerification, PublicUrl)(yield* Effect.context<UseCaseServices>())
      const provided = withServices(services)
      return Signers.of({
        create: provided(createSigner),
        list: provided(listSigners),
        get: provided(getSigner),
        manifest: provided(signerManifest),
        prepareRevoke: provided(prepareRevoke),
        preparePause: provided(preparePause),
        prepareResume: provided(prepareResume),
        finalize: provided(finalizeGrant)
      })
    })
  )
}
