import { Array as Arr, Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { type Quota, retryAfterSeconds, windowAt } from "@gateway/domain/limits/Quota"
import { Limited } from "./Limited.ts"
import type { Refusal } from "./RateLimits.ts"
import { UsageCounterRepo } from "./UsageCounterRepo.ts"

/** How often a replica adds what it counted to the store and learns the others' counts. */
const FLUSH_INTERVAL = Duration.millis(500)

/** Buckets one replica counts at once; past it new ones are admitted uncounted, never refused for want of room. */
const MAX_BUCKETS = 100_000

interface Counted {
  readonly bucket: string
  readonly quota: Quota
  readonly startMs: number
  /** Admitted here since the last flush. */
  pending: number
  /** Every replica's count in this window, as of the last flush. */
  known: number
}

/**
 * Limits for requests that must stay write-free (minting a 402): each replica
 * counts in memory and, every `FLUSH_INTERVAL`, adds its counts to the store in
 * one statement and reads back every replica's totals, so the limit holds
 * across replicas with no write per request. A bucket is admitted while its
 * known total plus what this replica admitted since is within the quota; N
 * replicas can together overshoot by what each admits in one interval.
 */
export class BatchedLimits extends Context.Service<BatchedLimits, {
  admit(bucket: string, quota: Quota, refusal: Refusal): Effect.Effect<void, Limited>
  /**
   * `admit` outside an effect, at `nowMs` (the Node server's own 402s, http/AnswerChallenge.ts): counts one and
   * returns undefined, or returns the refusal's Retry-After seconds and counts nothing.
   */
  admitNow(bucket: string, quota: Quota, nowMs: number): number | undefined
}>()("@gateway/server/BatchedLimits") {
  static readonly layer = Layer.effect(
    BatchedLimits,
    Effect.gen(function*() {
      const counters = yield* UsageCounterRepo
      const counts = new Map<string, Counted>()

      const admitNow = (bucket: string, quota: Quota, nowMs: number) => {
        const { startMs } = windowAt(quota, nowMs)
        const seen = counts.get(bucket)
        const current = seen !== undefined && seen.startMs === startMs ? seen : undefined
        // Past the bound a new bucket goes uncounted; one already held only moves to its next window, so it stays counted.
        if (seen === undefined && counts.size >= MAX_BUCKETS) return undefined
        const counted = current ?? { bucket, quota, startMs, pending: 0, known: 0 }
        if (counted.known + counted.pending >= quota.limit) return retryAfterSeconds(quota, nowMs)
        counted.pending += 1
        counts.set(bucket, counted)
        return undefined
      }

      const admit = (bucket: string, quota: Quota, refusal: Refusal) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
          const retryAfter = admitNow(bucket, quota, nowMs)
          return retryAfter === undefined ? Effect.void : Effect.fail(new Limited({ ...refusal, retryAfterSeconds: retryAfter }))
        })

      /** The store's totals for these buckets' current windows, every replica's counts included. */
      const learn = (totals: ReadonlyArray<{ readonly bucket: string; readonly startMs: number; readonly used: number }>) => {
        for (const total of totals) {
          const counted = counts.get(total.bucket)
          if (counted !== undefined && counted.startMs === total.startMs) counted.known = total.used
        }
      }

      const flush = Effect.gen(function*() {
        const nowMs = yield* Clock.currentTimeMillis
        const live: Array<Counted> = []
        for (const [bucket, counted] of counts) {
          // A window that ended is forgotten; its last counts no longer limit anything.
          if (windowAt(counted.quota, counted.startMs).endMs <= nowMs) counts.delete(bucket)
          else live.push(counted)
        }
        for (const chunk of Arr.chunksOf(live, 1000)) {
          // What this replica admitted goes to the store; every bucket it counts learns what the others admitted.
          const quiet = chunk.filter((c) => c.pending === 0).map((c) => c.bucket)
          const sent = chunk.filter((c) => c.pending > 0).map((counted) => ({ counted, amount: counted.pending }))
          if (Arr.isArrayNonEmpty(sent)) {
            const totals = yield* counters.addAll(
              Arr.map(sent, ({ counted, amount }) => ({ bucket: counted.bucket, window: windowAt(counted.quota, counted.startMs), amount }))
            )
            for (const { counted, amount } of sent) counted.pending -= amount
            learn(totals)
          }
          learn(yield* counters.usedAll(quiet))
        }
      }).pipe(
        // An outage is already logged by the store; the counts stay pending for the next flush.
        Effect.ignore
      )
      yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(FLUSH_INTERVAL)))

      return BatchedLimits.of({ admit, admitNow })
    })
  ).pipe(Layer.provide(UsageCounterRepo.layer))
}
