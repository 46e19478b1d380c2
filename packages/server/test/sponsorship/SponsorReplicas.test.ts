import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { layerReplicas, ReplicaA, ReplicaB } from "../support/Replicas.ts"
import { amount, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, testConfig } from "../support/TestServer.ts"
import { gasOf, ownerWithout, signed } from "./SponsorKit.ts"

const USD = CoinType.make(`0x${randomBytes(32).toString("hex")}::usd::USD`)

const config = {
  ...testConfig,
  supportedAssets: [SUI, USD],
  sponsorPerOwnerPerMinute: 1000,
  sponsorGasPerMinute: 10_000_000_000,
  sponsorNewcomerGasPerMinute: 10_000_000_000
}

/** Two gateways on one store and one ledger; the test's wallet reaches the chain through replica A's `/sui`. */
const Replicas = TestLedger.layer.pipe(
  Layer.provide(Layer.effect(BaseUrl, ReplicaA.useSync((a) => a))),
  Layer.provideMerge(layerReplicas(config)),
  Layer.orDie
)

describe("sponsorship across replicas", () => {
  layer(Layer.mergeAll(Replicas, FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("two replicas never hand out one coin version, and either executes what the other built", () =>
      Effect.gen(function*() {
        const a = yield* makeApiClient(yield* ReplicaA)
        const b = yield* makeApiClient(yield* ReplicaB)
        const owners = yield* Effect.forEach(Array.from({ length: 8 }, (_, i) => i), (i) =>
          Effect.gen(function*() {
            const [builder, executor] = i % 2 === 0 ? [a, b] : [b, a]
            const newcomer = yield* ownerWithout(builder, USD)
            const kind = yield* builder.spendAccounts.prepare({ payload: { asset: USD, depositAtomic: amount(500_000n) } }).pipe(newcomer.asOwner)
            return { ...newcomer, builder, executor, kind: kind.txKindBytes }
          }))
        // All at once, alternating replicas.
        const built = yield* Effect.forEach(owners, (o) => o.builder.sponsorship.sponsor({ payload: { txKindBytes: o.kind } }).pipe(o.asOwner), {
          concurrency: "unbounded"
        })
        const coins = built.map((b) => gasOf(b.txBytes).payment.map((p) => `${p.objectId}@${p.version}`).join(","))
        assert.strictEqual(new Set(coins).size, coins.length, `a coin version was handed out twice: ${coins.join(" ")}`)

        const executed = yield* Effect.forEach(owners, (o, i) =>
          Effect.gen(function*() {
            const txBytes = built[i]?.txBytes ?? ""
            const { signature } = yield* signed(o.owner, txBytes)
            return yield* o.executor.sponsorship.execute({ payload: { txBytes, signature } }).pipe(o.asOwner)
          }), { concurrency: 4 })
        assert.deepStrictEqual(executed.map((e) => e.status), owners.map(() => "success"))
      }))
  })
})
