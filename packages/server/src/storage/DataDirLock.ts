import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"
import { Data, Effect, Option, Runtime } from "effect"
import { tryLock } from "fs-native-extensions"

/** The file inside DATA_DIR whose lock marks the folder's one writer; it holds that process's pid, for the message. */
export const LOCK_FILE = "gateway.lock"

/** Start-up refused: another gateway process already keeps its PGlite store in this folder. */
export class DataDirTaken extends Data.TaggedError("DataDirTaken")<{ readonly message: string }> {
  // The message is the whole story for the operator: main's error report would add a stack trace to it.
  override readonly [Runtime.errorReported] = false
}

/**
 * The folder on disk a PGlite `dataDir` names, as PGlite reads it: `file://`
 * and a path, or a plain path; none for `memory://` (and the browser's
 * `idb://` and the like).
 */
export const diskFolder = (dataDir: string): Option.Option<string> => {
  if (dataDir.startsWith("file://")) return Option.some(dataDir.slice("file://".length))
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir) ? Option.none() : Option.some(dataDir)
}

/** What the refusal says: the folder, who holds it when the lock file tells, and what to do. */
export const takenMessage = (dataDir: string, holder: string) => {
  const pid = /^\d+$/.test(holder.trim()) ? ` (pid ${holder.trim()})` : ""
  return `DATA_DIR ${dataDir} is in use by another gateway process${pid}: PGlite has one writer per folder. Stop that gateway, or give this one another DATA_DIR`
}

const readHolder = (path: string) => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}

/**
 * One process at a time keeps its PGlite store in `dataDir`: two would write
 * one cluster's files independently, and two local ledgers journaled there
 * would hand out the same object ids. The lock is the kernel's (an exclusive
 * open-file-description lock on `DATA_DIR/gateway.lock`), held for the
 * scope's lifetime and dropped when the file is closed, which the kernel also
 * does when the process dies however it dies: no lock outlives its holder, so
 * there is no staleness to judge and nothing to steal. The file itself stays;
 * removing it would let a second process lock a new file while the first
 * still holds the old one.
 */
export const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const folder = resolve(dataDir)
      mkdirSync(folder, { recursive: true, mode: 0o700 })
      const path = join(folder, LOCK_FILE)
      const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600)
      if (!tryLock(fd)) {
        closeSync(fd)
        const taken = new DataDirTaken({ message: takenMessage(folder, readHolder(path)) })
        return Effect.logError(taken.message).pipe(Effect.andThen(Effect.fail(taken)))
      }
      ftruncateSync(fd, 0)
      writeSync(fd, `${process.pid}\n`, 0)
      return Effect.succeed(fd)
    }),
    (fd) => Effect.sync(() => closeSync(fd))
  )
