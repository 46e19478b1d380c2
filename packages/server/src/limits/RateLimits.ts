import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import { type Quota, retryAfterSeconds, windowAt } from "@gateway/domain/limits/Quota"
import { AppConfig } from "../Config.ts"
import { Limited } from "./Limited.ts"
import { UsageCounterRepo } from "./UsageCounterRepo.ts"

/** What a refusal tells the caller; `Retry-After` is added from the quota's window. */
export interface Refusal {
  readonly message: string
  readonly reason: string
}

/** Units taken from one window of a bucket, so an unspent reservation can be given back to the same window. */
export interface Taken {
  readonly bucket: string
  readonly startMs: number
  readonly amount: number
}

/**
 * Limits and budgets shared by every replica: each `take` adds to a counter in the store (one statement),
 * and refuses with `Limited` and the seconds left in the window once the quota is used. Ended windows are
 * deleted every `storeSweepIntervalMs`, on every replica (the delete is idempotent).
 */
export class RateLimits extends Context.Service<RateLimits, {
  /** Takes `amount` units (1 for a request) of `quota` for `bucket`, or refuses, taking nothing. */
  take(bucket: string, quota: Quota, refusal: Refusal, amount?: number): Effect.Effect<Taken, Limited | Unavailable>
  /** Gives back units taken but not spent (a reservation larger than what it cost). */
  giveBack(taken: Taken, amount: number): Effect.Effect<void, Unavailable>
}>()("@gateway/server/RateLimits") {
  static readonly layer = Layer.effect(
    RateLimits,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const counters = yield* UsageCounterRepo

      const take = Effect.fnUntraced(function*(bucket: string, quota: Quota, refusal: Refusal, amount = 1) {
        const nowMs = yield* Clock.currentTimeMillis
        const window = windowAt(quota, nowMs)
        const added = yield* counters.add(bucket, window, amount, quota.limit)
        if (!added) return yield* new Limited({ ...refusal, retryAfterSeconds: retryAfterSeconds(quota, nowMs) })
        return { bucket, startMs: window.startMs, amount }
      })

      const giveBack = (taken: Taken, amount: number) =>
        amount <= 0 ? Effect.void : counters.giveBack(taken.bucket, taken.startMs, Math.min(amount, taken.amount))

      const sweep = Effect.flatMap(Clock.currentTimeMillis, counters.deleteEnded).pipe(
        // An outage is already logged by the store; the next sweep tries again.
        Effect.ignore
      )
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.millis(config.storeSweepIntervalMs))))

      return RateLimits.of({ take, giveBack })
    })
  ).pipe(Layer.provide(UsageCounterRepo.layer))
}
