import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { openPglite, templateDirPath, warmTemplates } from "../../src/storage/PgliteTemplate.ts"

describe("a first start on disk copies the warmed cluster folder", () => {
  const root = mkdtempSync(join(tmpdir(), "gateway-template-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it("each new data dir gets its own fresh cluster, and what one writes never reaches the template or the next", async () => {
    await warmTemplates()
    assert.isTrue(existsSync(join(templateDirPath, "PG_VERSION")), "npm install's warm-up leaves the cluster folder")
    const first = join(root, "first")
    const db = await openPglite(first)
    assert.isTrue(existsSync(join(first, "PG_VERSION")), "the data dir holds a cluster of its own")
    await db.exec("CREATE TABLE written_here (id int)")
    await db.close()

    const reopened = await openPglite(first)
    assert.lengthOf((await reopened.query("SELECT 1 FROM pg_tables WHERE tablename = 'written_here'")).rows, 1, "a restart keeps what was written")
    await reopened.close()

    const second = await openPglite(join(root, "second"))
    assert.lengthOf((await second.query("SELECT 1 FROM pg_tables WHERE tablename = 'written_here'")).rows, 0, "a new data dir starts fresh")
    await second.close()
  }, 60_000)

  it("a data dir given as a file:// URL restarts on its own cluster, never on a fresh copy", async () => {
    await warmTemplates()
    const url = `file://${join(root, "by-url")}`
    const db = await openPglite(url)
    await db.exec("CREATE TABLE kept_by_url (id int)")
    await db.close()
    const reopened = await openPglite(url)
    assert.lengthOf((await reopened.query("SELECT 1 FROM pg_tables WHERE tablename = 'kept_by_url'")).rows, 1, "the restart kept what was written")
    await reopened.close()
  }, 60_000)

  it("a folder holding other files is never written over: the start fails and the files stay", async () => {
    await warmTemplates()
    const folder = join(root, "occupied")
    mkdirSync(folder)
    writeFileSync(join(folder, "notes.txt"), "mine")
    let refused: unknown
    await openPglite(folder).then((db) => db.close(), (error: unknown) => {
      refused = error
    })
    assert.match(String(refused), /holds files but no PostgreSQL cluster/)
    assert.deepStrictEqual(readdirSync(folder), ["notes.txt"])
  }, 60_000)
})
