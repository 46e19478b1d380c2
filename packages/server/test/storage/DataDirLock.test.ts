import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { freePort, type RunningServer, startCommand, startGateway } from "../../../../scripts/bench/ServerProcess.ts"
import { buildServer } from "../../build.ts"
import { DataDirTaken, diskFolder, LOCK_FILE, lockDataDir } from "../../src/storage/DataDirLock.ts"

/**
 * Starts the bundle as `npm start` does and waits for it either to exit or to
 * answer /health: what it printed and its exit code, or `started` (it is then
 * stopped, as a second writer must not be left running).
 */
const startOrExit = async (env: Record<string, string>) => {
  const port = await freePort()
  const command = startCommand()
  const child = spawn(process.execPath, command.args, {
    env: { ...command.env, ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (child.exitCode !== null) break
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false)) {
      child.kill("SIGKILL")
      await exited
      return { started: true, code: null, output } as const
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const code = await exited
  return { started: false, code, output } as const
}

/**
 * Threat: two gateways on one PGlite DATA_DIR (a second `npm start`, a
 * restart while the old process lingers). Both started, each wrote the same
 * cluster's files, and each local ledger handed out the same object ids for
 * different coins. Now the second refuses, naming the folder, and the lock
 * goes with its holder however it ends.
 */
describe("security: one gateway per PGlite DATA_DIR", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-data-"))
  const running: Array<RunningServer> = []

  beforeAll(() => buildServer(), 120_000)
  afterAll(async () => {
    const alive = running.filter((gateway) => gateway.process.exitCode === null && gateway.process.signalCode === null)
    await Promise.all(alive.map((gateway) => gateway.stop()))
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("a second gateway on the folder exits non-zero with one line naming it; after the first stops, or crashes, a new one starts", async () => {
    const first = await startGateway({ DATA_DIR: dataDir })
    running.push(first)

    const second = await startOrExit({ DATA_DIR: dataDir })
    assert.isFalse(second.started, "a second gateway started on the same DATA_DIR")
    assert.notStrictEqual(second.code, 0)
    assert.include(second.output, `DATA_DIR ${dataDir} is in use by another gateway process (pid ${first.process.pid})`)
    assert.notMatch(second.output, /\n\s+at /, "a stack trace")

    await first.stop()
    const third = await startGateway({ DATA_DIR: dataDir })
    running.push(third)
    assert.strictEqual(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim(), String(third.process.pid))

    // A crash releases the folder too: the kernel drops the lock with the process.
    const killed = new Promise((resolve) => third.process.once("exit", resolve))
    third.process.kill("SIGKILL")
    await killed
    const fourth = await startGateway({ DATA_DIR: dataDir })
    running.push(fourth)
    const health = await fetch(`${fourth.url}/health`).then((r) => r.json())
    assert.deepInclude(health, { ok: true, store: "up" })
  }, 180_000)

  it.effect("in one process too, a second lock on the folder is refused until the first is released", () =>
    Effect.gen(function*() {
      const folder = mkdtempSync(join(tmpdir(), "gateway-lock-"))
      const refused = yield* Effect.scoped(Effect.gen(function*() {
        yield* lockDataDir(folder)
        return yield* Effect.flip(Effect.scoped(lockDataDir(folder)))
      }))
      assert.instanceOf(refused, DataDirTaken)
      assert.include(refused.message, `DATA_DIR ${folder} is in use by another gateway process (pid ${process.pid})`)
      const after = yield* Effect.exit(Effect.scoped(lockDataDir(folder)))
      assert.isTrue(Exit.isSuccess(after))
      rmSync(folder, { recursive: true, force: true })
    }))

  it("the folder locked is the one PGlite writes: a path or file://, none in memory", () => {
    assert.deepStrictEqual(diskFolder("./data"), Option.some("./data"))
    assert.deepStrictEqual(diskFolder("/var/lib/gateway"), Option.some("/var/lib/gateway"))
    assert.deepStrictEqual(diskFolder("file:///var/lib/gateway"), Option.some("/var/lib/gateway"))
    assert.deepStrictEqual(diskFolder("memory://"), Option.none())
    assert.deepStrictEqual(diskFolder("idb://gateway"), Option.none())
  })
})
