import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, statFields } from "./ServerProcess.ts"

/** npm's settings from the `npm run bench` around us would reach the child npm; a newcomer's shell has none. */
const shellEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")))

/** A process's parent and the CPU it and its reaped children used, in ms, from /proc (Linux, 10 ms ticks). */
const statOf = (pid: number) => {
  try {
    const fields = statFields(pid)
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10 }
  } catch {
    return undefined
  }
}

/**
 * The CPU a process tree used so far: each live process's own and its reaped children's (the prestart checks, run
 * and waited for by npm's shell), so nothing is counted twice. A figure the machine's other load does not inflate.
 */
const treeCpuMs = (root: number) => {
  const stats = new Map(
    readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((name) => {
      const stat = statOf(Number(name))
      return stat === undefined ? [] : [[Number(name), stat] as const]
    })
  )
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && inTree(stats.get(pid)?.ppid ?? 0))
  return [...stats].reduce((sum, [pid, stat]) => (inTree(pid) ? sum + stat.cpuMs : sum), 0)
}

const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * `npm start` as the README has a newcomer type it, timed from the command to the first 200 on /health: npm's own
 * start, the prestart checks (engine, bundle freshness) and the gateway's start-up all count. It is stopped with
 * SIGTERM to its whole process group, and waited for until none of it is left: npm exits at once while the
 * gateway drains, and the next start must not meet the data dir still open.
 */
const timeOneStart = async (dataDir: string): Promise<{ readonly ms: number; readonly cpuMs: number }> => {
  const port = await freePort()
  const started = performance.now()
  const child = spawn("npm", ["start"], {
    // No readiness delay on the stop: nothing balances traffic here, and each stop would wait it out.
    env: { ...shellEnv(), PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, SHUTDOWN_DELAY_MS: "0" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true
  })
  const pid = child.pid
  if (pid === undefined) throw new Error("npm start did not spawn")
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false)) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const ms = performance.now() - started
  const cpuMs = treeCpuMs(pid)
  process.kill(-pid, "SIGTERM")
  while (groupAlive(pid)) await new Promise((r) => setTimeout(r, 20))
  return { ms, cpuMs }
}

/** One `npm start`: its wall time to the first 200 on /health, and the CPU all its processes used by then. */
export interface NpmStartRun {
  readonly ms: number
  readonly cpuMs: number
}

export interface NpmStartTimes {
  /** The first start on an empty data dir: PGlite creates its files and runs every migration. */
  readonly first: NpmStartRun
  /** Later starts on the same data dir, as every `npm start` after the first. */
  readonly restarts: ReadonlyArray<NpmStartRun>
}

/** `npm start` on PGlite, its default store: one first start on a fresh data dir, then `restarts` restarts on it. */
export const timeNpmStart = async (restarts = 3): Promise<NpmStartTimes> => {
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-npm-start-"))
  try {
    const first = await timeOneStart(dataDir)
    const later: Array<NpmStartRun> = []
    for (let i = 0; i < restarts; i++) later.push(await timeOneStart(dataDir))
    return { first, restarts: later }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
