import { Effect } from "effect"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { viewOf } from "@gateway/domain/signer/SignerView"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { currentReadAt } from "./CurrentReadAt.ts"
import { loadSigner } from "./LoadSigner.ts"
import { windowsOnChain } from "./WindowsOnChain.ts"

export const getSigner = Effect.fn("Signers.get")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const signer = yield* loadSigner(owner, id)
  const windows = yield* windowsOnChain([signer])
  return viewOf(signer, yield* currentReadAt, windows)
})
