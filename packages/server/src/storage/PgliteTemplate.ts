import { copyFileSync, cpSync, existsSync, mkdirSync, openAsBlob, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { Option, Schema } from "effect"
import { diskFolder, LOCK_FILE } from "./DataDirLock.ts"

/**
 * A fresh PGlite cluster is the same every time, and creating one runs initdb:
 * about 2 s of WASM work, most of the embedded server's start-up. The first
 * fresh cluster is dumped once per PGlite version into the project's own
 * `node_modules/.cache` (not the shared temp folder, where another user could
 * plant a cluster of their own), and later fresh clusters load that dump
 * (about 0.3 s). A data directory that already holds a cluster opens as it is.
 */
const { version } = Schema.decodeUnknownSync(Schema.Struct({ version: Schema.String }))(
  JSON.parse(readFileSync(new URL("../package.json", import.meta.resolve("@electric-sql/pglite")), "utf8"))
)

// node_modules/@electric-sql/pglite/dist/index.js → node_modules/.cache: from PGlite itself, so the bundled server finds it too.
const cacheDir = fileURLToPath(new URL("../../../.cache/gateway-pglite/", import.meta.resolve("@electric-sql/pglite")))
const templatePath = join(cacheDir, `pglite-${version}.tar`)
/**
 * The same fresh cluster as a folder, for a first start on disk: copied natively (about 0.3 s here), where PGlite
 * writes the tar's thousand files through its WebAssembly file system (about 0.9 s). `npm install` makes both
 * (`warmTemplates`, from the server's `prepare`), so the first `npm start` pays neither initdb nor the extraction.
 */
export const templateDirPath = join(cacheDir, `pglite-${version}-cluster`)

/**
 * Postgres's memory lives in PGlite's WebAssembly memory, which never shrinks.
 * Stock settings size it for a dedicated server: shared_buffers 128 MB (and
 * wal_buffers 4 MB, a 32nd of it) took the WASM memory to 189 MiB, most of it
 * resident. The gateway's working set is a few MB, and a page missing from the
 * buffers is read from the data directory's file (the OS page cache, or
 * PGlite's in-memory files), so 16 MB keeps what it uses hot; the WASM memory
 * then stays at its 128 MiB floor (the module's declared minimum), of which
 * only the touched pages are resident. docs/performance.md, "Memory".
 */
const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"]

/** The extensions the migrations create (pg_trgm for catalog search): PGlite loads them at start. */
const options: PGliteOptions = { extensions: { pg_trgm }, startParams }

/** The folder on disk `dataDir` names (a path or a `file://` URL, as PGlite reads it); none in memory. */
const folderOf = (dataDir: string | undefined): Option.Option<string> => (dataDir === undefined ? Option.none() : diskFolder(dataDir))

const holdsCluster = (dataDir: string | undefined) =>
  Option.match(folderOf(dataDir), { onNone: () => false, onSome: (folder) => existsSync(join(folder, "PG_VERSION")) })

/**
 * Copies the template cluster into an empty data folder (the start's lock file, and a volume's `lost+found`, aside). `PG_VERSION`, which marks a
 * folder as holding a cluster, goes last: a copy cut short (a full disk, a kill) is not taken for a cluster next
 * time. A folder holding anything else is never written over.
 */
const copyTemplateInto = (folder: string) => {
  const present = existsSync(folder) ? readdirSync(folder).filter((name) => name !== LOCK_FILE && name !== "lost+found") : []
  if (present.length > 0) throw new Error(`DATA_DIR ${folder} holds files but no PostgreSQL cluster (${present.slice(0, 3).join(", ")}): refusing to write a fresh one over them`)
  cpSync(templateDirPath, folder, { recursive: true, force: false, errorOnExist: true, filter: (source) => source !== join(templateDirPath, "PG_VERSION") })
  copyFileSync(join(templateDirPath, "PG_VERSION"), join(folder, "PG_VERSION"))
}

const createAndKeepTemplate = async (dataDir: string | undefined) => {
  const db = await PGlite.create(dataDir, options)
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 })
  const dump = await db.dumpDataDir("none")
  // Written aside and renamed, so a concurrent start never reads half a template.
  const partial = `${templatePath}.${process.pid}.${Date.now()}`
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
  renameSync(partial, templatePath)
  return db
}

/** The template cluster folder, made once from the tar: PGlite extracts it into a folder of its own, closed cleanly. */
const keepTemplateDir = async () => {
  if (existsSync(join(templateDirPath, "PG_VERSION")) || !existsSync(templatePath)) return
  // Made aside and renamed, so a concurrent start never copies half a cluster.
  const partial = `${templateDirPath}.${process.pid}.${Date.now()}`
  const db = await PGlite.create(partial, { ...options, loadDataDir: await openAsBlob(templatePath) })
  await db.close()
  try {
    renameSync(partial, templateDirPath)
  } catch {
    // Another process kept one first.
    rmSync(partial, { recursive: true, force: true })
  }
}

/** Makes the cluster templates (the tar, then the folder) if they are missing: `npm install` runs it. */
export const warmTemplates = async () => {
  if (!existsSync(templatePath)) await (await createAndKeepTemplate(undefined)).close()
  await keepTemplateDir()
}

/** Opens PGlite on `dataDir` (in memory when undefined), starting a fresh cluster from the template. */
export const openPglite = async (dataDir: string | undefined): Promise<PGlite> => {
  if (holdsCluster(dataDir)) return PGlite.create(dataDir, options)
  const folder = folderOf(dataDir)
  if (Option.isSome(folder) && existsSync(join(templateDirPath, "PG_VERSION"))) {
    copyTemplateInto(folder.value)
    return PGlite.create(dataDir, options)
  }
  if (!existsSync(templatePath)) return createAndKeepTemplate(dataDir)
  try {
    // PGlite keeps its options for its lifetime, so the template is handed over as a
    // file-backed Blob: an in-memory copy would stay resident (40 MB) for as long as the server runs.
    return await PGlite.create(dataDir, { ...options, loadDataDir: await openAsBlob(templatePath) })
  } catch (cause) {
    // A damaged template is dropped so the next start makes it again.
    rmSync(templatePath, { force: true })
    throw cause
  }
}
