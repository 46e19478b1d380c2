import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { buildConsole } from "../../build.ts"

const packages = join(import.meta.dirname, "../../..")
/** What the console's bundle is built from: its own sources and the workspace packages it imports. */
const SOURCES = ["console/src", "domain/src", "client/src", "chain/src"].map((dir) => join(packages, dir))
const BUILT = join(packages, "console/dist/index.html")

const newestIn = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs)
  }, 0)

/**
 * vitest's global setup: rebuild the console before any test file runs when
 * its sources changed since the last build, so the browser tests never drive
 * an older console than the code under test. Once per run, before the
 * workers start, so no test serves a build while another replaces it.
 */
export default async function freshConsole() {
  const stale = !existsSync(BUILT) || Math.max(...SOURCES.map(newestIn)) > statSync(BUILT).mtimeMs
  if (stale) await buildConsole({ replace: true })
}
