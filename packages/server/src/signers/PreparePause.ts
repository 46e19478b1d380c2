import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { prepareStep } from "./PrepareStep.ts"

export const preparePause = Effect.fn("Signers.preparePause")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const chain = yield* Chain
  return yield* prepareStep("pause", (g) => chain.buildPause({ sender: owner, grantObjectId: g.grantObjectId, kind: g.kind }), owner, id)
})
