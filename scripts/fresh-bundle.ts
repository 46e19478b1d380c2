import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const ROOT = join(import.meta.dirname, "..")
/** The bundle `npm start` runs (packages/server/build.ts writes it). */
export const BUNDLE = join(ROOT, "packages/server/dist/main.mjs")
/**
 * What the bundle is made from: the server's sources and the workspace packages it imports, the build
 * script itself, and the installed dependencies (npm rewrites node_modules/.package-lock.json whenever
 * an install changes node_modules, so an upgraded dependency makes the bundle stale too).
 */
export const BUNDLE_SOURCES = [
  "packages/server/src",
  "packages/domain/src",
  "packages/chain/src",
  "packages/local-ledger/src",
  "packages/server/build.ts",
  "packages/server/package.json",
  "node_modules/.package-lock.json"
].map((path) => join(ROOT, path))

/** The newest modification time under a file or folder (0 when it is missing: nothing there is newer). */
export const newestIn = (path: string): number => {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestIn(join(path, name))), stat.mtimeMs)
}

/** Why the bundle must be built again, or undefined when it is newer than everything it is made from. */
export const staleReason = (bundle: string = BUNDLE, sources: ReadonlyArray<string> = BUNDLE_SOURCES): string | undefined => {
  if (!existsSync(bundle)) return "no bundle yet"
  const built = statSync(bundle).mtimeMs
  const newer = sources.find((source) => newestIn(source) > built)
  return newer === undefined ? undefined : `${newer} changed since the last build`
}

/** `npm start`'s prestart: building takes about 2 s, so an up-to-date bundle is started as it is. */
export const ensureFreshBundle = async () => {
  const reason = staleReason()
  if (reason === undefined) return
  const started = performance.now()
  const { buildServer } = await import("../packages/server/build.ts")
  await buildServer()
  process.stderr.write(`gateway built in ${Math.round(performance.now() - started)} ms (${reason})\n`)
}
