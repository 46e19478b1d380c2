import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "vitest"
import { importCycles, longFunctions, sourcesUnder } from "./SourceShape.ts"

const packages = join(import.meta.dirname, "../../..")
const serverSrc = join(packages, "server/src")
const server = sourcesUnder(serverSrc)

/** The most lines one function of the server may span: a layer assembles use cases, it does not hold them. */
const MAX_FUNCTION_LINES = 80

describe("the server's source shape", () => {
  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    assert.deepStrictEqual(longFunctions(server, MAX_FUNCTION_LINES, serverSrc), [])
  })

  it("has no import cycle", () => {
    assert.deepStrictEqual(importCycles(server, serverSrc), [])
  })

  it("embeds the local ledger only in local mode", () => {
    const importers = server
      .filter((s) => s.imports.some((i) => i.startsWith("@gateway/local-ledger")))
      .map((s) => s.path.slice(serverSrc.length + 1))
    assert.deepStrictEqual(importers, ["localMode/LocalMode.ts", "localMode/LedgerJournalSql.ts"].sort())
  })
})

describe("package entry points", () => {
  for (const name of ["domain", "chain", "local-ledger", "client", "sui-pay", "agent-mcp", "server", "console"]) {
    it(`@gateway/${name} exports chosen entry points, not every file`, () => {
      const manifest = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")) as { exports: Record<string, unknown> }
      assert.deepStrictEqual(Object.keys(manifest.exports).filter((key) => key.includes("*")), [])
    })
  }
})
