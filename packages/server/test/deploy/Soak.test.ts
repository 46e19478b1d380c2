import { spawn } from "node:child_process"
import { delimiter, dirname, join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { buildServer } from "../../build.ts"

/**
 * `npm run soak` as CI runs it (issue 27): three live-mode replicas of the built bundle on one PostgreSQL
 * and one standalone ledger, behind the script's round-robin proxy, under the load's traffic mix for
 * 15 s, one replica SIGKILLed and restarted, another SIGTERMed. The script is its own judge (it exits
 * non-zero on any inconsistency, lost request or failed fault); this runs it as a child process, as an
 * operator would, and holds its exit code and the report's key lines.
 */

const repo = join(import.meta.dirname, "../../../..")

const runSoak = (seconds: number) =>
  new Promise<{ readonly code: number | null; readonly output: string }>((resolve, reject) => {
    // npm's script finds this Node 22 first (vitest runs on the repository's pinned node).
    const path = [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter)
    const child = spawn("npm", ["run", "-s", "soak"], { cwd: repo, env: { ...process.env, PATH: path, SOAK_SECONDS: String(seconds) } })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += String(chunk)))
    child.stderr.on("data", (chunk: Buffer) => (output += String(chunk)))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, output }))
  })

const count = (output: string, pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN)

describe("npm run soak", () => {
  // The replicas run the bundle `npm start` runs, so it is built from the sources under test first.
  beforeAll(() => buildServer(), 120_000)

  // 15 s of traffic, the replicas' start-up, the wait for the gateway's recovery and the audit: well within five minutes.
  it("three replicas under load, SIGKILL and restart, SIGTERM: exits 0 with a consistent report", { timeout: 300_000 }, async () => {
    const { code, output } = await runSoak(15)
    expect(code, output).toBe(0)
    expect(output).toMatch(/^soak: PASS$/m)
    expect(output).toMatch(/^mismatches: 0$/m)
    expect(output).toMatch(/^requests: (\d+) received, \1 answered, 0 without an answer/m)
    const acknowledged = count(output, /^paid calls acknowledged: (\d+)$/m)
    expect(acknowledged).toBeGreaterThan(0)
    // A call in flight when its replica was killed may still be settled by the gateway's recovery, unacknowledged:
    // the store and the chain agree with each other, and hold every acknowledged call (no mismatches above).
    const stored = count(output, /^payments in store: (\d+)/m)
    expect(count(output, /^payments on chain: (\d+)$/m)).toBe(stored)
    expect(stored).toBeGreaterThanOrEqual(acknowledged)
    expect(output).toMatch(/r1 {2}ended: killed by SIGKILL/)
    expect(output).toMatch(/r1 {2}restarted on the same port/)
    expect(output).toMatch(/r2 {2}ended: exit 0 after/)
    expect(output).toMatch(/^limit held: yes /m)
  })
})
