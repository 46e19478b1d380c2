import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { prepareStep } from "./PrepareStep.ts"

export const prepareRevoke = Effect.fn("Signers.prepareRevoke")(function*(owner: SuiAddress, id: DelegatedSignerId) {
  const chain = yield* Chain
  return yield* prepareStep("revoke", (g) => chain.buildRevoke({ sender: owner, grantObjectId: g.grantObjectId }), owner, id)
})
