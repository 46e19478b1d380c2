import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer } from "@gateway/client"
import { layerReplicas, ReplicaA, ReplicaB } from "../support/Replicas.ts"
import { payWithVoucher } from "../support/SessionByHand.ts"
import { PRICE, sessionScenario } from "../support/SessionScenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, testConfig } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

/** Two replicas on one store and chain; the test's wallet and API client go through replica A. */
const Replicas = Layer.unwrap(
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const config = { ...testConfig, upstreamAllowHosts: [...testConfig.upstreamAllowHosts, new URL(upstream.url).host] }
    return TestLedger.layer.pipe(
      Layer.provideMerge(Layer.effect(BaseUrl, ReplicaA.useSync((a) => a))),
      Layer.provideMerge(layerReplicas(config)),
      Layer.orDie
    )
  })
).pipe(Layer.provideMerge(Upstream.layer))

/** A voucher is a bearer of one call: presented at once to several replicas, it pays exactly one forward. */
describe("payment sessions across replicas", () => {
  layer(Layer.mergeAll(Replicas, FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("20 concurrent presentations of one voucher across two replicas make one forward; the next voucher pays the next call", () =>
      Effect.gen(function*() {
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 10n * PRICE })
        const urls = [s.entry.resourceUrl, s.entry.resourceUrl.replace(yield* ReplicaA, yield* ReplicaB)]
        const answers = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => urls[i % 2] ?? s.entry.resourceUrl),
          (url) => payWithVoucher(url, s.offer, s.session, PRICE),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers.map((a) => a.status)))
        for (const a of answers.filter((x) => x.status !== 200)) {
          assert.strictEqual(a.status, 409, JSON.stringify(a.body))
          assert.include(["session_busy", "voucher_already_used"], String(a.body["reason"]))
        }
        assert.strictEqual(s.calls(), 1, "one forward")
        const next = yield* payWithVoucher(urls[1] ?? s.entry.resourceUrl, s.offer, s.session, 2n * PRICE)
        assert.strictEqual(next.status, 200, JSON.stringify(next.body))
        assert.strictEqual(s.calls(), 2)
      }), { timeout: 60_000 })
  })
})
