import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { startCommand } from "../bench/ServerProcess.ts"

/** How a replica's process ended: its exit code, or the signal that ended it. */
export interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** One line of the fault timeline: seconds since the lanes started, which replica, what happened. */
export interface Event {
  readonly atSeconds: number
  readonly replica: string
  readonly what: string
}

/** A replica's start-up must end within this; the bundle starts in a few seconds even on a busy machine. */
const READY_WITHIN_MS = 60_000

const ended = (child: ChildProcess) =>
  new Promise<Ended>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode })
    child.once("exit", (code, signal) => resolve({ code, signal }))
  })

export const describeEnd = (end: Ended) => (end.signal === null ? `exit ${end.code}` : `killed by ${end.signal}`)

/**
 * One gateway replica: the bundle `npm start` runs, in its own Node process on a fixed loopback port, so a
 * restart comes back where the proxy already sends requests. Its output goes to a log file of its own
 * (three replicas' access logs on one terminal would bury the report).
 */
export const makeReplica = (name: string, port: number, env: Readonly<Record<string, string>>, logDir: string) => {
  const log = join(logDir, `${name}.log`)
  let child: ChildProcess | undefined

  /** Spawns it (again) and waits until `/health/ready` answers 200: store reachable, migrations done. */
  const start = async () => {
    const command = startCommand()
    const fd = openSync(log, "a")
    const started = performance.now()
    const spawned = spawn(process.execPath, command.args, {
      env: { ...command.env, ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", fd, fd]
    })
    closeSync(fd)
    child = spawned
    const deadline = Date.now() + READY_WITHIN_MS
    while (Date.now() < deadline) {
      if (spawned.exitCode !== null || spawned.signalCode !== null) {
        throw new Error(`${name} ${describeEnd({ code: spawned.exitCode, signal: spawned.signalCode })} before it was ready; its log:\n${tail()}`)
      }
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status === 200, () => false)
      if (ready) return performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`${name} was not ready within ${READY_WITHIN_MS} ms; its log:\n${tail()}`)
  }

  /** Sends `signal` and waits for the process to end; a replica already gone just reports how it ended. */
  const signal = async (sig: NodeJS.Signals) => {
    const running = child
    if (running === undefined) return { code: null, signal: null }
    const done = ended(running)
    if (running.exitCode === null && running.signalCode === null) running.kill(sig)
    return done
  }

  /** The last lines of its log, for a failure's message. */
  const tail = (lines = 20) => {
    try {
      return readFileSync(log, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
    } catch {
      return "(no log)"
    }
  }

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null

  return { name, port, log, start, signal, tail, running }
}

export type Replica = ReturnType<typeof makeReplica>
