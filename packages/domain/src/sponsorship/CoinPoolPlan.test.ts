import { assert, describe, it } from "@effect/vitest"
import { buildCandidates, buildCoins, type HeldCoin, planPool, type PoolCoin, runsLow, sortHolds } from "./CoinPoolPlan.ts"

const SHAPE = { coins: 4, coinMist: 1_000n, dustBelow: 100n, gasReserve: 50n }
const coin = (n: number, balance: bigint): PoolCoin => ({ objectId: `0x${n}`, version: "1", digest: "d", balance })
const ids = (coins: ReadonlyArray<PoolCoin>) => coins.map((c) => c.objectId)

describe("the sponsor's coin pool", () => {
  it("splits the largest coin (the reservoir) until the pool is full, keeping the reservoir usable", () => {
    const plan = planPool([coin(1, 40_000n)], new Set(), SHAPE)
    assert.deepStrictEqual(plan && { source: plan.source.objectId, merge: ids(plan.merge), split: plan.split }, { source: "0x1", merge: [], split: 4 })
  })

  it("does nothing when enough coins are free and there is no dust to speak of", () => {
    assert.isUndefined(planPool([coin(1, 5_000n), coin(2, 1_000n), coin(3, 1_000n), coin(4, 1_000n), coin(6, 1_000n), coin(5, 10n)], new Set(), SHAPE))
  })

  it("counts held coins as gone: owners holding builds get the pool refilled around them", () => {
    const coins = [coin(1, 40_000n), coin(2, 1_000n), coin(3, 1_000n), coin(4, 1_000n), coin(5, 1_000n)]
    const plan = planPool(coins, new Set(["0x2", "0x3", "0x4"]), SHAPE)
    assert.strictEqual(plan?.source.objectId, "0x1")
    assert.strictEqual(plan?.split, 3)
    assert.isUndefined(planPool(coins, new Set(["0x1", "0x2", "0x3", "0x4", "0x5"]), SHAPE), "nothing free, nothing touched")
  })

  it("merges free dust into the source, never a held coin", () => {
    const coins = [coin(1, 40_000n), coin(2, 10n), coin(3, 20n), coin(4, 30n)]
    const plan = planPool(coins, new Set(["0x4"]), SHAPE)
    assert.deepStrictEqual(plan && ids(plan.merge), ["0x2", "0x3"])
    const dustOnly = planPool([coin(1, 1_000n), coin(2, 1_000n), coin(3, 1_000n), coin(4, 1_000n), coin(9, 5_000n), coin(5, 10n), coin(6, 10n)], new Set(), SHAPE)
    assert.deepStrictEqual(dustOnly && { split: dustOnly.split, merge: ids(dustOnly.merge) }, { split: 0, merge: ["0x5", "0x6"] })
  })

  it("splits only what the source can afford", () => {
    const plan = planPool([coin(1, 2_200n)], new Set(), SHAPE)
    assert.strictEqual(plan?.split, 2)
    assert.isUndefined(planPool([coin(1, 1_100n)], new Set(), SHAPE))
  })

  it("builds take unheld coins above dust, never the reservoir while it can split; the pool runs low below a quarter", () => {
    assert.deepStrictEqual(ids(buildCoins([coin(1, 1_000n), coin(2, 10n), coin(3, 1_000n)], new Set(["0x3"]), SHAPE)), ["0x1"], "too small to split: no reservoir")
    assert.deepStrictEqual(ids(buildCoins([coin(1, 1_000n), coin(2, 40_000n), coin(3, 1_000n)], new Set(["0x3"]), SHAPE)), ["0x1"])
    assert.deepStrictEqual(ids(buildCoins([coin(1, 1_000n), coin(2, 40_000n)], new Set(["0x1"]), SHAPE)), [], "the reservoir is left to the leader")
    assert.isTrue(runsLow(0, SHAPE))
    assert.isFalse(runsLow(1, SHAPE))
    assert.isTrue(runsLow(3, { ...SHAPE, coins: 16 }))
  })

  it("a build of a budget tries only the free coins that can pay it; busy when none is free but one could pay, unfunded when none could", () => {
    const coins = [coin(1, 1_000n), coin(2, 500n), coin(3, 1_000n), coin(4, 40_000n)]
    const some = buildCandidates(coins, new Set(["0x3"]), SHAPE, 600n)
    assert.deepStrictEqual({ coins: ids(some.coins), runsLow: some.runsLow, funded: some.funded }, { coins: ["0x1"], runsLow: false, funded: true })
    const busy = buildCandidates(coins, new Set(["0x1", "0x3"]), SHAPE, 600n)
    assert.deepStrictEqual({ coins: ids(busy.coins), runsLow: busy.runsLow, funded: busy.funded }, { coins: [], runsLow: false, funded: true }, "0x2 is free but too small")
    const held = buildCandidates(coins, new Set(["0x1", "0x2", "0x3"]), SHAPE, 600n)
    assert.deepStrictEqual({ coins: ids(held.coins), runsLow: held.runsLow, funded: held.funded }, { coins: [], runsLow: true, funded: true }, "only the reservoir is free")
    assert.isFalse(buildCandidates([coin(1, 500n)], new Set(), SHAPE, 600n).funded)
  })

  it("a round lets go of co-signed versions that can never execute (the coin moved on, or the epoch ended), and keeps everything else held", () => {
    const coins = [coin(1, 1_000n), coin(2, 1_000n), coin(3, 1_000n), coin(4, 1_000n)]
    const hold = (n: number, version: string, state: HeldCoin["state"], epoch: bigint): HeldCoin => ({ coinId: `0x${n}`, coinVersion: version, state, epoch })
    const held = [
      hold(1, "1", "signed", 5n),
      hold(2, "0", "signed", 5n),
      hold(3, "1", "signed", 4n),
      hold(4, "0", "reserved", 4n),
      hold(5, "1", "reserved", 5n)
    ]
    const { dead, stillHeld } = sortHolds(coins, held, 5n)
    assert.deepStrictEqual(dead.map((h) => h.coinId), ["0x2", "0x3"])
    assert.deepStrictEqual([...stillHeld], ["0x1", "0x4", "0x5"], "a reservation is left to its own expiry")
    assert.deepStrictEqual(sortHolds(coins, [], 5n), { dead: [], stillHeld: new Set<string>() })
  })
})
