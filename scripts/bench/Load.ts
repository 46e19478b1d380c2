import autocannon from "autocannon"
import { Record } from "effect"

export interface LoadFigures {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
  /** How many answers had each status code. */
  readonly statusCodes: Readonly<Record<string, number>>
}

/** One bounded autocannon run against a URL on loopback. */
export const load = (options: {
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly method?: "GET" | "POST"
  readonly headers?: Record<string, string>
  readonly body?: string
}): Promise<LoadFigures> =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        method: options.method ?? "GET",
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(options.body === undefined ? {} : { body: options.body })
      },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error)
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
          statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]))
        })
      }
    )
  })

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Figure by figure, the median of runs of one load; counts are summed. */
const medianOf = (runs: ReadonlyArray<LoadFigures>): LoadFigures => ({
  requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
  errors: runs.reduce((a, r) => a + r.errors, 0),
  statusCodes: runs.reduce<Record<string, number>>((sum, r) => {
    for (const [code, count] of Object.entries(r.statusCodes)) sum[code] = (sum[code] ?? 0) + count
    return sum
  }, {})
})

/**
 * Three rounds, each running every load once in turn, and each load's median
 * over the rounds. Loads compared as a ratio run side by side in time: this
 * machine's speed drifts by half within minutes, and a ratio of loads run one
 * after the other would read the drift.
 */
export const interleavedMedians = async <K extends string>(loads: Record<K, () => Promise<LoadFigures>>): Promise<Record<K, LoadFigures>> => {
  const runs = Record.map(loads, (): Array<LoadFigures> => [])
  for (let round = 0; round < 3; round++) {
    for (const name of Record.keys(loads)) runs[name].push(await loads[name]())
  }
  return Record.map(runs, medianOf)
}
