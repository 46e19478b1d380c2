import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

const body = (code: "INVALID" | "UNAVAILABLE", message: string, reason: string) => JSON.stringify({ ok: false, code, message, reason })

/**
 * Requests Node refuses before any handler sees them (malformed HTTP, headers
 * over its 16 KiB limit) would get Node's bare 400 or 431; they get the
 * spec's INVALID body instead.
 */
const refuseMalformed = (error: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable) return socket.destroy()
  const text = body("INVALID", "The request is invalid", error.code === "HPE_HEADER_OVERFLOW" ? "headers_too_large" : "malformed_http_request")
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  )
}

/**
 * The server listens before the app's handler is attached; a request in that
 * gap would find no listener and hang until the caller's timeout (a health
 * check during start-up did, for 300 s). Until the app's handler is there,
 * requests are answered 503 UNAVAILABLE, which callers retry.
 */
const answerWhileStarting = (server: Server) => (_request: IncomingMessage, response: ServerResponse) => {
  if (server.listenerCount("request") > 1) return
  const text = body("UNAVAILABLE", "The gateway is starting", "starting")
  response.writeHead(503, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "retry-after": "1" }).end(text)
}

/** `node:http`'s server, answering what no handler can with the error body. */
export const createGatewayServer = (): Server => {
  const server = createServer().on("clientError", refuseMalformed)
  return server.on("request", answerWhileStarting(server))
}
