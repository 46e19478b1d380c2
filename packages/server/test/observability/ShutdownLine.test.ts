import { spawn } from "node:child_process"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { freePort, startCommand } from "../../../../scripts/bench/ServerProcess.ts"
import { buildServer } from "../../build.ts"

/**
 * The bundle `npm start` runs, started as it does with stdout a pipe (JSON
 * lines, as under a log collector): on SIGTERM it writes one Info line saying
 * it stopped, and exits 0.
 */
describe("the shutdown line", () => {
  const children: Array<ReturnType<typeof spawn>> = []
  beforeAll(() => buildServer(), 120_000)
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  })

  it("SIGTERM: one JSON line at Info, message \"gateway stopped\", after the server stopped", async () => {
    const port = await freePort()
    const command = startCommand()
    const child = spawn(process.execPath, command.args, {
      env: { ...command.env, ...process.env, DATA_DIR: "memory://", LOG_LEVEL: "info", PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.push(child)
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal }))
    )
    for (const started = Date.now();;) {
      if (child.exitCode !== null) assert.fail(`gateway exited with ${child.exitCode}: ${stdout}${stderr}`)
      if (Date.now() - started > 60_000) assert.fail("gateway did not answer /health within 60 s")
      if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    assert.notInclude(stdout, "gateway stopped")

    child.kill("SIGTERM")
    const exit = await exited
    const lines = stdout.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>)
    const stopped = lines.filter((line) => line.message === "gateway stopped")
    assert.strictEqual(stopped.length, 1, `stdout:\n${stdout}\nstderr:\n${stderr}`)
    assert.strictEqual(stopped[0]?.level, "INFO")
    assert.strictEqual(lines.at(-1)?.message, "gateway stopped", "the last line written")
    for (const line of lines) assert.isString(line.message)
    // A stop that was asked for and drained is a clean exit.
    assert.deepStrictEqual(exit, { code: 0, signal: null })
  }, 120_000)
})
