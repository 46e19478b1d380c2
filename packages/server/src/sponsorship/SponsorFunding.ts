import { Effect, Option } from "effect"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorFaucet } from "./SponsorFaucet.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** With a faucet (local mode) the sponsor is kept funded with at least this many of its gifts. */
const FAUCET_GIFTS = 4n

/** Local mode funds its own sponsor from the faucet, as a developer would: a restart finds the funds already there. */
export const fundFromFaucet = Effect.gen(function*() {
  const faucet = yield* Effect.serviceOption(SponsorFaucet)
  if (Option.isNone(faucet)) return
  const node = yield* SponsorNode
  const { address } = yield* SponsorAccount
  const { amount, give } = faucet.value
  const held = (yield* Effect.orDie(node.coins(address))).reduce((sum, c) => sum + c.balance, 0n)
  for (let funded = held; funded < FAUCET_GIFTS * amount; funded += amount) yield* give(address)
})
