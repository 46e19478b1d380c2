import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { timeNpmStart, type NpmStartTimes } from "./NpmStart.ts"
import { startGateway } from "./ServerProcess.ts"
import { median } from "./Timing.ts"

/** Issue 28's goals for `npm start` on PGlite, the command timed whole (npm and its prestart checks included). */
export const GOAL_FIRST_START_MS = 2000
export const GOAL_RESTART_MS = 1000

export interface StartUpFigures {
  /** The server process alone, to its first 200 on /health, on a fresh store (in memory on PGlite). */
  readonly startups: ReadonlyArray<number>
  /** The server process alone, restarted on a PGlite data dir it made before. */
  readonly restarts: ReadonlyArray<number>
  /** `npm start` itself on PGlite; none on PostgreSQL, which `npm start` does not default to. */
  readonly npmStart: NpmStartTimes | undefined
}

const startupRuns = (runEnv: Record<string, string>) =>
  Effect.forEach([1, 2, 3], () =>
    Effect.gen(function*() {
      const probe = yield* Effect.promise(() => startGateway(runEnv))
      yield* Effect.promise(probe.stop)
      return probe.startupMs
    }))

/** Start-up three times each way; `env` is the server's settings for the fresh-store runs. */
export const startUpFigures = (env: Record<string, string>, pglite: boolean) =>
  Effect.gen(function*() {
    const startups = yield* startupRuns(env)
    if (!pglite) return { startups, restarts: [], npmStart: undefined } satisfies StartUpFigures
    // `npm start` keeps PGlite in ./data: after the first start, every start is a restart on a data dir.
    const dataDir = mkdtempSync(join(tmpdir(), "gateway-bench-"))
    const restarts = yield* Effect.gen(function*() {
      const first = yield* Effect.promise(() => startGateway({ DATA_DIR: dataDir }))
      yield* Effect.promise(first.stop)
      return yield* startupRuns({ DATA_DIR: dataDir })
    }).pipe(Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))))
    const npmStart = yield* Effect.promise(() => timeNpmStart(3))
    return { startups, restarts, npmStart } satisfies StartUpFigures
  })

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "n/a")
const runs = (ms: ReadonlyArray<number>) => ms.map(fmt).join(", ")
const against = (ms: number, goal: number) => `${fmt(ms)} ms (goal < ${goal}: ${ms < goal ? "met" : "not met"})`

/** The start-up figures as the bench prints them. */
export const startUpLines = (f: StartUpFigures): ReadonlyArray<string> => [
  ...(f.npmStart === undefined ? [] : npmStartLines(f.npmStart)),
  `the server process alone to first 200 on /health, fresh store: ${fmt(median(f.startups))} ms (runs: ${runs(f.startups)})`,
  ...(f.restarts.length === 0 ? [] : [
    `the server process alone to first 200 on /health, restart on a data dir: ${fmt(median(f.restarts))} ms (runs: ${runs(f.restarts)})`
  ])
]

const npmStartLines = (t: NpmStartTimes) => {
  const restartMs = t.restarts.map((r) => r.ms)
  const restartCpu = t.restarts.map((r) => r.cpuMs)
  return [
    `npm start to first 200 on /health, first start on an empty data dir: ${against(t.first.ms, GOAL_FIRST_START_MS)}, CPU ${fmt(t.first.cpuMs)} ms`,
    `npm start to first 200 on /health, restart on that data dir: ${against(median(restartMs), GOAL_RESTART_MS)} (runs: ${runs(restartMs)}), CPU ${
      fmt(median(restartCpu))
    } ms (runs: ${runs(restartCpu)})`,
    "  (CPU: every process of the command, npm and its prestart checks included; the machine's other load does not inflate it)"
  ]
}
