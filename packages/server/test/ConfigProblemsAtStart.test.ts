import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { startCommand } from "../../../scripts/bench/ServerProcess.ts"
import { buildServer } from "../build.ts"

/**
 * Issue 27: the bundle `npm start` runs, given several bad variables at once,
 * names every one of them in one go (one JSON line each, then a short
 * summary), exits non-zero, and writes nothing to its fresh DATA_DIR.
 */
describe("configuration problems at start-up", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-config-"))
  beforeAll(() => buildServer(), 120_000)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("every bad variable reported at once, no secret quoted, nothing written", async () => {
    const secret = "HUNTER2-not-a-sponsor-key"
    const command = startCommand()
    const env: Record<string, string | undefined> = {
      ...command.env,
      ...process.env,
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: "not-a-port",
      SESSION_TTL_MS: "soon",
      LOG_LEVEL: "loud",
      SPONSOR_KEY: secret,
      CREDENTIALS_KEY: secret
    }
    for (const name of ["DATABASE_URL", "SUI_GRPC_URL", "SUI_RPC_URL", "TRUSTED_PROXIES"]) delete env[name]
    const child = spawn(process.execPath, command.args, { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    const context = `stdout:\n${stdout}\nstderr:\n${stderr}`

    assert.notStrictEqual(code, 0, context)
    assert.notStrictEqual(code, null, context)
    const lines = stdout.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Record<string, unknown>)
    const expected = ["CREDENTIALS_KEY", "LOG_LEVEL", "PORT", "SESSION_TTL_MS", "SPONSOR_KEY"]
    assert.deepStrictEqual(lines.map((line) => line.variable).sort(), expected, context)
    for (const line of lines) {
      assert.strictEqual(line.level, "ERROR")
      assert.isString(line.message)
      assert.isTrue((line.message as string).startsWith(line.variable as string), line.message as string)
    }
    const summary = stderr.trim().split("\n")
    assert.strictEqual(summary.length, 1, context)
    assert.match(summary[0] ?? "", /^5 configuration problems: .*; see README "Configuration"$/)
    for (const name of expected) assert.include(summary[0], name)
    assert.notInclude(stdout + stderr, "HUNTER2")
    assert.deepStrictEqual(readdirSync(dataDir), [], "DATA_DIR stayed empty")
  }, 120_000)
})
