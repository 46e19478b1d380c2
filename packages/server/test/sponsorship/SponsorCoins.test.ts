import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type GatewayClient, makeApiClient } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { failsWith } from "../support/Assertions.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { amount, SUI } from "../support/Scenario.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { defaults } from "../../src/Config.ts"
import { type AsOwner, gasOf, ownerWithout, poolFilled, signed } from "./SponsorKit.ts"

const USD = CoinType.make(`0x${randomBytes(32).toString("hex")}::usd::USD`)

const fundKind = (client: GatewayClient, asOwner: AsOwner, atomic = 500_000n) =>
  Effect.map(client.spendAccounts.prepare({ payload: { asset: USD, depositAtomic: amount(atomic) } }).pipe(asOwner), (k) => k.txKindBytes)

/** A fresh owner holding USD, and the gateway's sponsored bytes opening their spend account. */
const builtFor = (client: GatewayClient) =>
  Effect.gen(function*() {
    const newcomer = yield* ownerWithout(client, USD)
    const kind = yield* fundKind(client, newcomer.asOwner)
    const built = yield* client.sponsorship.sponsor({ payload: { txKindBytes: kind } }).pipe(newcomer.asOwner)
    return { ...newcomer, kind, built }
  })

const coinKey = (txBytes: string) => gasOf(txBytes).payment.map((p) => `${p.objectId}@${p.version}`).join(",")

// A pool of four coins, as the review found the local sponsor with; budgets out of the way.
const Env = (overrides: Parameters<typeof gatewayFor>[1] = {}) =>
  gatewayFor([], {
    supportedAssets: [SUI, USD],
    sponsorPerOwnerPerMinute: 1000,
    sponsorPoolCoins: 4,
    sponsorGasPerMinute: 10_000_000_000,
    sponsorNewcomerGasPerMinute: 10_000_000_000,
    ...overrides
  })

describe("the sponsor's coins", () => {
  layer(gatewayFor([], { supportedAssets: [SUI, USD] }), { excludeTestServices: true })((it) => {
    it.effect("at start the leader splits the sponsor's funds into a pool of SPONSOR_POOL_COINS coins of SPONSOR_COIN_MIST beside its reservoir", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { built } = yield* builtFor(client)
        const { coins, poolCoins } = yield* poolFilled(built.sponsor)
        assert.isAtLeast(poolCoins.length, defaults.sponsorPoolCoins - 3, "most of the pool is split-off coins (the faucet's other coins serve too)")
        const usable = coins.filter((c) => BigInt(c.balance) >= BigInt(defaults.sponsorGasBudgetMax))
        assert.isAtLeast(usable.length, defaults.sponsorPoolCoins + 1)
      }))
  })

  layer(Env(), { excludeTestServices: true })((it) => {
    it.effect("owners who build and never execute do not block another owner: the pool is refilled", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const hoarders = yield* Effect.forEach([1, 2, 3, 4, 5, 6], () => builtFor(client))
        const held = new Set(hoarders.map((h) => coinKey(h.built.txBytes)))
        assert.strictEqual(held.size, hoarders.length, "each build holds a coin of its own")

        const late = yield* builtFor(client)
        assert.isFalse(held.has(coinKey(late.built.txBytes)))
        const { signature } = yield* signed(late.owner, late.built.txBytes)
        const executed = yield* client.sponsorship.execute({ payload: { txBytes: late.built.txBytes, signature } }).pipe(late.asOwner)
        assert.strictEqual(executed.status, "success")
      }))

    it.effect("an owner holds one reservation at a time: a new build releases the previous one, whose bytes are then refused", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const newcomer = yield* ownerWithout(client, USD)
        // Six different calls (amounts), so no two builds are the same bytes.
        const builds = yield* Effect.forEach([1n, 2n, 3n, 4n, 5n, 6n], (i) =>
          Effect.flatMap(fundKind(client, newcomer.asOwner, 500_000n + i), (txKindBytes) =>
            client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(newcomer.asOwner)))
        const [first] = builds
        const last = builds[builds.length - 1]
        if (first === undefined || last === undefined) return assert.fail("no builds")
        const stale = yield* signed(newcomer.owner, first.txBytes)
        const refused = yield* failsWith(client.sponsorship.execute({ payload: { txBytes: first.txBytes, signature: stale.signature } }).pipe(newcomer.asOwner), "INVALID")
        assert.match(refused.reason, /^txBytes/)
        const { signature } = yield* signed(newcomer.owner, last.txBytes)
        const executed = yield* client.sponsorship.execute({ payload: { txBytes: last.txBytes, signature } }).pipe(newcomer.asOwner)
        assert.strictEqual(executed.status, "success")
      }))
  })

  layer(Env({ sponsorReservationMs: 1500 }), { excludeTestServices: true })((it) => {
    it.effect("a build whose reservation expired is not co-signed", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner, built } = yield* builtFor(client)
        const { signature } = yield* signed(owner, built.txBytes)
        yield* Effect.sleep("2 seconds")
        const refused = yield* failsWith(client.sponsorship.execute({ payload: { txBytes: built.txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.match(refused.reason, /expired/)
      }))
  })
})
