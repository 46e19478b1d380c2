import { Duplex } from "node:stream"
import type { PGlite } from "@electric-sql/pglite"

/** The codes an untyped first message carries (PostgreSQL protocol, "Message Formats"). */
const PROTOCOL_3 = 196608
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102

/** A simple-query message ("Q", its length, the statement NUL-terminated) rolling back the open transaction. */
const ROLLBACK = (() => {
  const text = Buffer.from("ROLLBACK\0")
  const message = Buffer.alloc(5 + text.length)
  message.write("Q", 0)
  message.writeInt32BE(4 + text.length, 1)
  text.copy(message, 5)
  return new Uint8Array(message)
})()

/** Per cluster: which connection last ran statements, so only it may roll back a transaction left open. */
const lastConnection = new WeakMap<PGlite, object>()

/** The length of the untyped first message (Int32 length, then its code) when it has all arrived, else 0. */
const openingLength = (buffer: Buffer) => (buffer.length >= 8 && buffer.length >= buffer.readInt32BE(0) ? buffer.readInt32BE(0) : 0)

/** How many bytes at the head of `buffer` are whole typed messages (a byte, then an Int32 length that counts itself). */
const wholeMessages = (buffer: Buffer) => {
  let at = 0
  while (buffer.length - at >= 5) {
    const length = 1 + buffer.readInt32BE(at + 1)
    if (buffer.length - at < length) break
    at += length
  }
  return at
}

/**
 * A connection to PGlite in this process, for `@effect/sql-pg`'s `stream`
 * option: the client's wire-protocol bytes go to PGlite's own protocol
 * handler whole, a batch of messages at a time, and its answers come back,
 * with no socket in between. A port on loopback, which `pglite-socket`
 * served, let any local process reach the store without credentials
 * (the first to connect at start-up held its only connection); this has no
 * address at all, and spends about a fifth less CPU a statement.
 *
 * Statements run one batch at a time under PGlite's exclusive lock. A
 * CancelRequest is ignored, as PGlite cannot cancel a statement; SSL and GSS
 * encryption are declined, as there is nothing to encrypt. A connection
 * that closes inside a transaction it opened rolls it back, so the next one
 * does not inherit it.
 */
export const pgliteConnection = (db: PGlite) => (): Duplex => {
  const self = {}
  let pending: Buffer = Buffer.alloc(0)
  /** Until the untyped first message has arrived. */
  let first = true
  let session = false
  let queue: Promise<void> = Promise.resolve()

  const run = (batch: Uint8Array) => {
    queue = queue
      .then(() =>
        db.runExclusive(() => {
          lastConnection.set(db, self)
          return db.execProtocolRawStream(batch, { onRawData: (answer) => void connection.push(Buffer.from(answer)) })
        })
      )
      .catch((error: unknown) => void connection.destroy(error instanceof Error ? error : new Error(String(error))))
  }

  /** The untyped first message: a session starts, or the connection asks for something this does not do. */
  const opening = (message: Buffer) => {
    const code = message.readInt32BE(4)
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) return void connection.push(Buffer.from("N"))
    first = false
    if (code === CANCEL_REQUEST) return void process.nextTick(() => connection.destroy())
    if (code !== PROTOCOL_3) return void process.nextTick(() => connection.destroy(new Error(`unsupported protocol ${code}`)))
    session = true
    run(new Uint8Array(message))
  }

  // Checked and rolled back under the same lock, so no other connection's statement can come in between.
  const rollBackIfLeftOpen = () =>
    queue.then(() =>
      db.runExclusive(async () => {
        if (session && lastConnection.get(db) === self && db.isInTransaction()) await db.execProtocolRaw(ROLLBACK)
      })
    ).catch(() => undefined)

  const connection: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      while (first) {
        const length = openingLength(pending)
        if (length === 0) return callback()
        const message = pending.subarray(0, length)
        pending = pending.subarray(length)
        opening(message)
      }
      const length = session ? wholeMessages(pending) : 0
      if (length > 0) {
        run(new Uint8Array(pending.subarray(0, length)))
        pending = pending.subarray(length)
      }
      callback()
    },
    final(callback) {
      void rollBackIfLeftOpen().then(() => {
        connection.push(null)
        callback()
      })
    },
    destroy(error, callback) {
      void rollBackIfLeftOpen().then(() => callback(error))
    }
  })
  return connection
}
