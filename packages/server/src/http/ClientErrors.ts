import { createServer, type Server } from "node:http"
import type { Duplex } from "node:stream"

const body = (reason: string) => JSON.stringify({ ok: false, code: "INVALID", message: "The request is invalid", reason })

/**
 * Requests Node refuses before any handler sees them (malformed HTTP, headers
 * over its 16 KiB limit) would get Node's bare 400 or 431; they get the
 * spec's INVALID body instead.
 */
const answer = (error: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable) return socket.destroy()
  const text = body(error.code === "HPE_HEADER_OVERFLOW" ? "headers_too_large" : "malformed_http_request")
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  )
}

/** `node:http`'s server, answering its own refusals with the error body. */
export const createGatewayServer = (): Server => createServer().on("clientError", answer)
