import { Effect } from "effect"
import { buildCandidates, type PoolShape } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { SponsorNode } from "./SponsorNode.ts"

const shuffled = <A>(items: ReadonlyArray<A>): Array<A> => {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    const a = copy[i]
    const b = copy[j]
    if (a !== undefined && b !== undefined) {
      copy[i] = b
      copy[j] = a
    }
  }
  return copy
}

/** Coins a build may take that can pay `budget` (`buildCandidates`), in random order so replicas rarely race for one. */
export const poolCandidates = Effect.fnUntraced(function*(shape: PoolShape, budget: bigint) {
  const node = yield* SponsorNode
  const repo = yield* ReservationRepo
  const { address } = yield* SponsorAccount
  const [coins, held] = yield* Effect.all([node.coins(address), repo.held], { concurrency: 2 })
  const candidates = buildCandidates(coins, new Set(held.map((h) => h.coinId)), shape, budget)
  return { ...candidates, coins: shuffled(candidates.coins) }
})
