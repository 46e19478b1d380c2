import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { prepareStep } from "./PrepareStep.ts"

export const prepareResume = Effect.fn("Signers.prepareResume")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const chain = yield* Chain
  return yield* prepareStep("resume", (g) => chain.buildResume({ sender: owner, grantObjectId: g.grantObjectId, kind: g.kind }), owner, id)
})
