import { Cause, Data, Effect, Exit, Predicate } from "effect"
import { httpStatus, isApiError } from "@gateway/domain/Errors"

/** What went wrong in one step: the HTTP status when the gateway answered, and its code and reason. */
export interface Failure {
  readonly status: number | null
  readonly code: string
  readonly reason: string
}

/** The gateway answered, but not what the step must get: a paid call without a 200 and its receipt, or an unexpected body. */
export class Answered extends Data.TaggedError("Answered")<Failure> {}

/** A transaction a step submitted failed on chain, or did not become final in time. */
export class ChainStepFailed extends Data.TaggedError("ChainStepFailed")<{ readonly code: string; readonly reason: string }> {}

/** A step of a flow failed; it has been recorded, and the flow stops there. */
export class StepFailed extends Data.TaggedError("StepFailed")<{ readonly kind: string; readonly failure: Failure }> {}

const message = (u: unknown) => (u instanceof Error ? u.message : String(u))

/**
 * The status and code of a failure: API errors by their code's status (502s
 * included), the SDK's own errors and transport errors by their tag. With
 * `fromLedger`, the step's error channel only carries the ledger's errors
 * (which reuse the API's classes) and gateway answers as `Answered`, so an API
 * error there has no status: no gateway answered it.
 */
export const describe = (error: unknown, fromLedger: boolean): Failure => {
  if (error instanceof Answered) return { status: error.status, code: error.code, reason: error.reason }
  if (error instanceof ChainStepFailed) return { status: null, code: error.code, reason: error.reason }
  if (isApiError(error)) {
    return { status: fromLedger ? null : httpStatus[error.code], code: fromLedger ? `chain ${error.code}` : error.code, reason: error.reason }
  }
  if (Predicate.hasProperty(error, "_tag") && typeof error._tag === "string") {
    const reason = Predicate.hasProperty(error, "reason") && typeof error.reason === "string" ? error.reason : message(error)
    return { status: null, code: error._tag, reason }
  }
  return { status: null, code: "defect", reason: message(error) }
}

export const describeStatus = (failure: Failure) => `${failure.status ?? "-"} ${failure.code}`

interface KindStats {
  ok: number
  failed: number
  readonly latencies: Array<number>
}

/** Nearest-rank percentile of sorted samples, in ms; "-" without any. */
const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]?.toFixed(1) ?? "-"

const pad = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")

/**
 * Counts and latencies per kind of step (listed in `order`, then any other),
 * every failure by kind, status and code, and the 5xx answers among them.
 */
export const makeStats = (order: ReadonlyArray<string>) => {
  const kinds = new Map<string, KindStats>()
  const failures = new Map<string, { count: number; reason: string }>()
  /** Every failure in full, so a caller can tell apart the ones a fault it caused explains (the soak's killed replica). */
  const every: Array<{ readonly kind: string; readonly failure: Failure; readonly atMs: number }> = []
  let fiveHundreds = 0

  const of = (kind: string) => {
    const known = kinds.get(kind)
    if (known !== undefined) return known
    const fresh: KindStats = { ok: 0, failed: 0, latencies: [] }
    kinds.set(kind, fresh)
    return fresh
  }
  for (const kind of order) of(kind)

  const record = (kind: string, ms: number, failure: Failure | undefined) => {
    const stats = of(kind)
    stats.latencies.push(ms)
    if (failure === undefined) {
      stats.ok += 1
      return
    }
    stats.failed += 1
    every.push({ kind, failure, atMs: Date.now() })
    if (failure.status !== null && failure.status >= 500) fiveHundreds += 1
    const key = `${kind}: ${describeStatus(failure)}`
    const seen = failures.get(key)
    if (seen === undefined) failures.set(key, { count: 1, reason: failure.reason })
    else seen.count += 1
  }

  /**
   * Runs one step, timing it and recording how it ended. A failure (or defect)
   * is recorded and becomes a StepFailed, so the flow stops and the lane goes on.
   */
  const step = <A, E>(kind: string, self: Effect.Effect<A, E>, options: { readonly fromLedger: boolean } = { fromLedger: false }) =>
    Effect.suspend(() => {
      const started = performance.now()
      return Effect.flatMap(Effect.exit(self), (exit): Effect.Effect<A, StepFailed> => {
        const ms = performance.now() - started
        if (Exit.isSuccess(exit)) {
          record(kind, ms, undefined)
          return Effect.succeed(exit.value)
        }
        const failure = describe(Cause.squash(exit.cause), options.fromLedger)
        record(kind, ms, failure)
        return Effect.fail(new StepFailed({ kind, failure }))
      })
    })

  /** A failure outside any step (a defect in the lane itself). */
  const unexpected = (kind: string, error: unknown) => record(kind, 0, describe(error, false))

  const totals = (isRequest: (kind: string) => boolean) => {
    let requests = 0
    let failed = 0
    for (const [kind, stats] of kinds) {
      if (isRequest(kind)) requests += stats.ok + stats.failed
      failed += stats.failed
    }
    return { requests, failed, fiveHundreds }
  }

  const table = (elapsedSeconds: number) => {
    const header = ["kind", "ok", "failed", "per s", "p50 ms", "p99 ms"]
    const rows = [...kinds].map(([kind, stats]) => {
      const sorted = [...stats.latencies].sort((a, b) => a - b)
      return [
        kind,
        String(stats.ok),
        String(stats.failed),
        ((stats.ok + stats.failed) / elapsedSeconds).toFixed(1),
        percentile(sorted, 50),
        percentile(sorted, 99)
      ]
    })
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
    return [pad(header, widths), ...rows.map((r) => pad(r, widths))]
  }

  const failureLines = () => [...failures].map(([key, { count, reason }]) => `${key} ×${count} (e.g. ${reason})`)

  const allFailures = (): ReadonlyArray<{ readonly kind: string; readonly failure: Failure; readonly atMs: number }> => every

  return { step, unexpected, totals, table, failureLines, allFailures }
}

export type Stats = ReturnType<typeof makeStats>
