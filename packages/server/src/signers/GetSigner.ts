import { Effect } from "effect"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { viewOf } from "@gateway/domain/signer/SignerView"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { currentReadAt } from "./CurrentReadAt.ts"
import { loadSigner } from "./LoadSigner.ts"
import { withPendingKinds } from "./PendingKinds.ts"
import { SignerRepo } from "./SignerRepo.ts"
import { windowsOnChain } from "./WindowsOnChain.ts"

export const getSigner = Effect.fn("Signers.get")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const signer = yield* loadSigner(owner, id)
  const windows = yield* windowsOnChain([signer])
  const view = viewOf(signer, yield* currentReadAt, windows)
  // Only a signer with a pending grant has a kind left to sign: the others skip the read.
  if (!view.grants.some((grant) => grant.status === "pending")) return view
  return withPendingKinds(view, yield* (yield* SignerRepo).createKinds(owner, [signer.id]))
})
