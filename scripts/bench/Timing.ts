import { Duration, Effect } from "effect"

/** The value at percentile `p` of `values` (nearest rank); NaN when there are none. */
export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

export const median = (values: ReadonlyArray<number>) => percentile(values, 50)

/** The p50 and p99 of a stage's timings. */
export const split = (values: ReadonlyArray<number>) => ({ p50: median(values), p99: percentile(values, 99) })

/** Runs `self`, answering its value and how long it took in ms. */
export const time = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.timed(self), ([duration, value]) => ({ ms: Duration.toMillis(duration), value }))
