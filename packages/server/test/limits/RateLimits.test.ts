import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { perMinute } from "@gateway/domain/limits/Quota"
import { AppConfig } from "../../src/Config.ts"
import { Limited } from "../../src/limits/Limited.ts"
import { RateLimits } from "../../src/limits/RateLimits.ts"
import { layerStore } from "../../src/Server.ts"
import { TestStore, testConfig } from "../support/TestServer.ts"

const refusal = { message: "Too many", reason: "test_rate_limited" }

const Limits = RateLimits.layer.pipe(Layer.provide(layerStore(TestStore)), Layer.provide(AppConfig.layer(testConfig)))

describe("RateLimits, counted in the store", () => {
  layer(Limits)((it) => {
    it.effect("takes up to the limit, then refuses with the seconds left in the window, taking nothing", () =>
      Effect.gen(function*() {
        const limits = yield* RateLimits
        yield* TestClock.setTime(60_000 * 1000 + 15_000)
        for (let i = 0; i < 3; i++) yield* limits.take("a", perMinute(3), refusal)
        const refused = yield* Effect.flip(limits.take("a", perMinute(3), refusal))
        if (!(refused instanceof Limited)) return assert.fail(`expected Limited, got ${refused._tag}`)
        assert.deepStrictEqual(
          { message: refused.message, reason: refused.reason, retryAfterSeconds: refused.retryAfterSeconds },
          { ...refusal, retryAfterSeconds: 45 }
        )
        // Another bucket is untouched, and the next window starts empty.
        yield* limits.take("b", perMinute(3), refusal)
        yield* TestClock.adjust("45 seconds")
        yield* limits.take("a", perMinute(3), refusal)
      }))

    it.effect("amounts: a take larger than what is left refuses and takes nothing; given-back units can be taken again", () =>
      Effect.gen(function*() {
        const limits = yield* RateLimits
        yield* TestClock.setTime(60_000 * 2000)
        const taken = yield* limits.take("gas", perMinute(1000), refusal, 700)
        assert.strictEqual((yield* Effect.flip(limits.take("gas", perMinute(1000), refusal, 301)))._tag, "Limited")
        yield* limits.take("gas", perMinute(1000), refusal, 300)
        assert.strictEqual((yield* Effect.flip(limits.take("gas", perMinute(1000), refusal, 1)))._tag, "Limited")
        // Giving back never returns more than was taken.
        yield* limits.giveBack(taken, 5000)
        yield* limits.take("gas", perMinute(1000), refusal, 700)
        assert.strictEqual((yield* Effect.flip(limits.take("gas", perMinute(1000), refusal, 1)))._tag, "Limited")
        assert.strictEqual((yield* Effect.flip(limits.take("big", perMinute(10), refusal, 11)))._tag, "Limited")
      }))
  })
})
