import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { expectRateLimited } from "../support/Assertions.ts"
import { rawRequest } from "../support/PaidEnv.ts"
import { awayFromMinuteEdge } from "../support/RawPost.ts"
import { ReplicaA, ReplicaB, layerReplicas } from "../support/Replicas.ts"
import { liveService } from "../support/Scenario.ts"
import { testConfig } from "../support/TestServer.ts"

const LIMIT = 6

/** What one replica admits before it has heard of the other's counts: the counts meet in the store every 0.5 s. */
const settle = Effect.sleep("1200 millis")

/**
 * Threat: a client asking for 402 challenges without end, spread over replicas. Minting stays
 * write-free: each replica counts in memory and adds its counts to the store in batches, so the limit
 * holds across replicas without a write per 402.
 */
describe("security: 402 challenges are limited per client across replicas, without a write per challenge", () => {
  layer(Layer.mergeAll(layerReplicas({ ...testConfig, paymentChallengesPerMinute: LIMIT }), FetchLayer).pipe(Layer.orDie), {
    excludeTestServices: true
  })((it) => {
    it.effect("a client spreading 402s over two replicas is refused after the limit, by both, with Retry-After", () =>
      Effect.gen(function*() {
        const a = yield* ReplicaA
        const b = yield* ReplicaB
        const { entry } = yield* liveService(yield* makeApiClient(a), { price: 40n, upstreamUrl: "http://127.0.0.1:9" })
        const path = new URL(entry.resourceUrl).pathname
        const ask = (origin: string, localAddress = "127.0.0.1") => rawRequest(`${origin}${path}`, { localAddress })
        yield* awayFromMinuteEdge()
        for (const origin of [a, b, a]) assert.strictEqual((yield* ask(origin)).status, 402)
        yield* settle
        for (const origin of [b, a, b]) assert.strictEqual((yield* ask(origin)).status, 402)
        yield* settle
        for (const origin of [a, b]) {
          const refused = yield* ask(origin)
          expectRateLimited(
            { ...refused, body: JSON.parse(refused.text) },
            "payment_challenges_rate_limited",
            "Too many payment challenges asked for by this client: try again after Retry-After seconds"
          )
        }
        // Another client's 402s are its own.
        assert.strictEqual((yield* ask(a, "127.0.0.2")).status, 402)
      }))
  })
})
