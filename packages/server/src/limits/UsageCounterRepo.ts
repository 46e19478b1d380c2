import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeUnavailable } from "../storage/Codecs.ts"

/** One fixed window of a bucket: `[startMs, endMs)`. */
export interface CounterWindow {
  readonly startMs: number
  readonly endMs: number
}

/**
 * SQL for usage counted in the store: what one bucket (a limit and the party it counts) used in one
 * window. Every replica adds into the same row, so a limit holds across replicas.
 */
export class UsageCounterRepo extends Context.Service<UsageCounterRepo, {
  /**
   * Adds `amount` to the bucket's window if the total stays within `limit`, in one statement (the row
   * lock orders concurrent adds on PostgreSQL); true when added, false when it would exceed the limit,
   * in which case nothing is added.
   */
  add(bucket: string, window: CounterWindow, amount: number, limit: number): Effect.Effect<boolean, Unavailable>
  /**
   * Adds each count to its bucket's window without a limit, in one statement (a batch counted in memory since the
   * last one); what each bucket has used in all, every replica's counts included.
   */
  addAll(counts: Arr.NonEmptyReadonlyArray<{ readonly bucket: string; readonly window: CounterWindow; readonly amount: number }>): Effect.Effect<
    ReadonlyArray<{ readonly bucket: string; readonly startMs: number; readonly used: number }>,
    Unavailable
  >
  /** What each of these buckets has used, per window the store still holds. */
  usedAll(buckets: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<{ readonly bucket: string; readonly startMs: number; readonly used: number }>, Unavailable>
  /** Takes `amount` back from a window (never below 0): a reservation that was not spent. */
  giveBack(bucket: string, startMs: number, amount: number): Effect.Effect<void, Unavailable>
  /** Deletes the windows that ended by `nowMs`; how many. */
  deleteEnded(nowMs: number): Effect.Effect<number, Unavailable>
}>()("@gateway/server/UsageCounterRepo") {
  static readonly layer = Layer.effect(
    UsageCounterRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return UsageCounterRepo.of({
        add: (bucket, window, amount, limit) =>
          amount > limit
            ? Effect.succeed(false)
            : sql<{ readonly used: unknown }>`
                INSERT INTO usage_counters (bucket, window_start, window_end, used)
                VALUES (${bucket}, ${window.startMs}, ${window.endMs}, ${amount})
                ON CONFLICT (bucket, window_start) DO UPDATE SET used = usage_counters.used + EXCLUDED.used
                  WHERE usage_counters.used + EXCLUDED.used <= ${limit}
                RETURNING used`.pipe(
              Effect.map((rows) => rows.length > 0),
              storeUnavailable,
              Effect.withSpan("UsageCounterRepo.add", { attributes: { "limit.bucket": bucket } })
            ),
        addAll: (counts) =>
          sql<{ readonly bucket: string; readonly windowStart: unknown; readonly used: unknown }>`
            INSERT INTO usage_counters ${
            sql.insert(Arr.map(counts, (c) => ({ bucket: c.bucket, windowStart: c.window.startMs, windowEnd: c.window.endMs, used: c.amount })))
          }
            ON CONFLICT (bucket, window_start) DO UPDATE SET used = usage_counters.used + EXCLUDED.used
            RETURNING bucket, window_start, used`.pipe(
            Effect.map((rows) => rows.map((r) => ({ bucket: r.bucket, startMs: Number(r.windowStart), used: Number(r.used) }))),
            storeUnavailable,
            Effect.withSpan("UsageCounterRepo.addAll", { attributes: { "limit.buckets": counts.length } })
          ),
        usedAll: (buckets) =>
          buckets.length === 0
            ? Effect.succeed([])
            : sql<{ readonly bucket: string; readonly windowStart: unknown; readonly used: unknown }>`
                SELECT bucket, window_start, used FROM usage_counters WHERE bucket IN ${sql.in(buckets)}`.pipe(
              Effect.map((rows) => rows.map((r) => ({ bucket: r.bucket, startMs: Number(r.windowStart), used: Number(r.used) }))),
              storeUnavailable,
              Effect.withSpan("UsageCounterRepo.usedAll", { attributes: { "limit.buckets": buckets.length } })
            ),
        giveBack: (bucket, startMs, amount) =>
          sql`UPDATE usage_counters SET used = GREATEST(used - ${amount}, 0) WHERE bucket = ${bucket} AND window_start = ${startMs}`.pipe(
            Effect.asVoid,
            storeUnavailable,
            Effect.withSpan("UsageCounterRepo.giveBack")
          ),
        deleteEnded: (nowMs) =>
          sql<{ readonly bucket: string }>`DELETE FROM usage_counters WHERE window_end <= ${nowMs} RETURNING bucket`.pipe(
            Effect.map((rows) => rows.length),
            storeUnavailable,
            Effect.withSpan("UsageCounterRepo.deleteEnded")
          )
      })
    })
  )
}
