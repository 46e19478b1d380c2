import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "vitest"
import { importCycles, longFunctions, sourcesUnder } from "./SourceShape.ts"

const packages = join(import.meta.dirname, "../../..")
const serverSrc = join(packages, "server/src")
const server = sourcesUnder(serverSrc)

/** The most lines one function may span: a layer assembles use cases, a panel assembles its parts; neither holds them. */
const MAX_FUNCTION_LINES = 80

const PACKAGES = ["domain", "chain", "local-ledger", "server", "client", "sui-pay", "agent-mcp", "console"]

describe("every package's source shape", () => {
  for (const name of PACKAGES) {
    const root = join(packages, name, "src")
    const sources = sourcesUnder(root)
    it(`@gateway/${name} has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
      assert.deepStrictEqual(longFunctions(sources, MAX_FUNCTION_LINES, root), [])
    })

    it(`@gateway/${name} has no import cycle`, () => {
      assert.deepStrictEqual(importCycles(sources, root), [])
    })
  }
})

describe("the server's source shape", () => {

  it("embeds the local ledger only in local mode", () => {
    const importers = server
      .filter((s) => s.imports.some((i) => i.startsWith("@gateway/local-ledger")))
      .map((s) => s.path.slice(serverSrc.length + 1))
    assert.deepStrictEqual(importers, ["localMode/LocalMode.ts", "localMode/LedgerJournalSql.ts"].sort())
  })
})

describe("package entry points", () => {
  for (const name of PACKAGES) {
    it(`@gateway/${name} exports chosen entry points, not every file`, () => {
      const manifest = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")) as { exports: Record<string, unknown> }
      assert.deepStrictEqual(Object.keys(manifest.exports).filter((key) => key.includes("*")), [])
    })
  }
})
