import { existsSync, mkdtempSync, rmSync } from "node:fs"
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
})
