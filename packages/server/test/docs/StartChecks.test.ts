import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, assert, describe, it } from "vitest"
import { staleReason } from "../../../../scripts/fresh-bundle.ts"

const run = promisify(execFile)
const ROOT = new URL("../../../../", import.meta.url).pathname
const NODE = join(ROOT, "node_modules/.bin/node")
const CHECK = join(ROOT, "scripts/engine-check.cjs")

/** The check as `npm start` runs it, with GATEWAY_ENGINE_CHECK_VERSION playing the Node it finds. */
const runCheck = (version: string) =>
  run(NODE, [CHECK], { env: { PATH: process.env["PATH"] ?? "", GATEWAY_ENGINE_CHECK_VERSION: version } }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (e: { code?: number; stderr?: string }) => ({ code: e.code ?? -1, stderr: e.stderr ?? "" })
  )

describe("the engine check npm start and npm test run first", () => {
  it("on an old Node it fails with one line naming Node 22 and npm install", async () => {
    const { code, stderr } = await runCheck("20.11.1")
    assert.strictEqual(code, 1)
    const lines = stderr.trimEnd().split("\n")
    assert.strictEqual(lines.length, 1)
    assert.match(stderr, /Node 22/)
    assert.match(stderr, /npm install/)
    assert.match(stderr, /20\.11\.1/)
  })

  it("passes silently on Node 22 once installed", async () => {
    const { code, stderr } = await runCheck("22.23.3")
    assert.strictEqual(code, 0)
    assert.strictEqual(stderr, "")
  })

  it("names npm install on Node 22 when nothing is installed", async () => {
    const { engineProblem } = await import("../../../../scripts/engine-check.cjs")
    assert.match(engineProblem("22.1.0", false) ?? "", /npm install/)
    assert.match(engineProblem("18.0.0", true) ?? "", /Node 22/)
    assert.isUndefined(engineProblem("22.1.0", true))
  })
})

describe("npm start rebuilds the server bundle only when it is stale", () => {
  const dir = mkdtempSync(join(tmpdir(), "gateway-fresh-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const bundle = join(dir, "main.mjs")
  const src = join(dir, "src")
  mkdirSync(join(src, "deep"), { recursive: true })
  const source = join(src, "deep/File.ts")
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds)

  it("a missing bundle is built, an older one rebuilt, a newer one kept", () => {
    writeFileSync(source, "export {}")
    for (const path of [source, join(src, "deep"), src]) at(path, 1_000)
    assert.strictEqual(staleReason(bundle, [src]), "no bundle yet")
    writeFileSync(bundle, "")
    at(bundle, 2_000)
    assert.isUndefined(staleReason(bundle, [src, join(dir, "missing")]))
    at(source, 3_000)
    assert.match(staleReason(bundle, [src]) ?? "", /changed since the last build/)
  })
})
