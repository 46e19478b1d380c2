import { IncomingMessage, Server, ServerResponse } from "node:http"
import { Socket } from "node:net"
import type { Duplex } from "node:stream"
import type { AppConfigShape } from "../Config.ts"
import { CATALOG_CACHE_CONTROL, holdsCurrent, hotReadKey, type ServiceReadCache } from "../catalog/ServiceReadCache.ts"

const body = (code: "INVALID" | "UNAVAILABLE", message: string, reason: string) => JSON.stringify({ ok: false, code, message, reason })

/** Why Node gave up on a connection before any handler could answer it. */
const reasonOf = (error: NodeJS.ErrnoException) => {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return "headers_too_large"
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return "request_timeout"
    default:
      return "malformed_http_request"
  }
}

/**
 * Requests Node refuses before any handler sees them (malformed HTTP, headers
 * over its 16 KiB limit, a request not whole within the request timeout)
 * would get Node's bare 400, 431 or 408; they get the spec's INVALID body
 * instead, unless an answer has already begun on that connection.
 */
const refuseMalformed = (error: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable || (socket instanceof Socket && socket.bytesWritten > 0)) return socket.destroy()
  const text = body("INVALID", "The request is invalid", reasonOf(error))
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  )
}

/** The settings that bound how long a connection may take (README "Configuration"). */
export type ServerTimeouts = Pick<AppConfigShape, "requestTimeoutMs" | "headersTimeoutMs" | "keepAliveTimeoutMs">

/** How often Node looks for requests past their time; its 30 s default would let a 30 s bound stretch to a minute. */
const TIMEOUT_CHECK_MS = 1_000

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

/**
 * A kept catalog read (ServiceReadCache, the one place it is consulted) is
 * answered here, before the request becomes an effect fiber: the bytes, media
 * type and ETag the app answered since the service last changed, or 304. These
 * hits get no access-log line of their own; everything else goes to the app as usual.
 */
const answerHotRead = (reads: ServiceReadCache["Service"], request: IncomingMessage, response: ServerResponse) => {
  if (request.method !== "GET" || request.url === undefined) return false
  const key = hotReadKey(request.url)
  const read = key === undefined ? undefined : reads.get(key)
  if (read === undefined) return false
  if (holdsCurrent(request.headers["if-none-match"], read.etag)) {
    response.writeHead(304, { etag: read.etag, "cache-control": CATALOG_CACHE_CONTROL }).end()
  } else {
    response.writeHead(200, {
      "content-type": read.contentType,
      "content-length": read.bytes.byteLength,
      etag: read.etag,
      "cache-control": CATALOG_CACHE_CONTROL
    }).end(read.bytes)
  }
  return true
}

/** Answers a request before it becomes an effect fiber, or returns false to leave it to the app. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean

/**
 * `node:http`'s server, answering what no handler can with the error body,
 * and kept catalog reads and plain 402s (http/AnswerChallenge.ts) itself. Its
 * timeouts are set, not left to Node's defaults (a body could trickle in for
 * 300 s): the whole request, body included, within `requestTimeoutMs`; its
 * headers within `headersTimeoutMs`; an idle keep-alive connection closed
 * after `keepAliveTimeoutMs`.
 */
class GatewayServer extends Server {
  readonly reads: ServiceReadCache["Service"]
  private challenges: EarlyAnswer | undefined = undefined
  constructor(reads: ServiceReadCache["Service"], timeouts: ServerTimeouts) {
    super({
      requestTimeout: timeouts.requestTimeoutMs,
      headersTimeout: timeouts.headersTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, timeouts.headersTimeoutMs)
    })
    this.reads = reads
    this.on("clientError", refuseMalformed)
    this.on("request", answerWhileStarting(this))
  }
  /** Plain 402s are answered once this is set, and only while the app's handler is attached: what they leave goes to it. */
  answerChallengesWith(answer: EarlyAnswer) {
    this.challenges = answer
  }
  override emit(event: string, ...args: Array<unknown>): boolean {
    const [request, response] = args
    const answered = event === "request" && request instanceof IncomingMessage && response instanceof ServerResponse &&
      (answerHotRead(this.reads, request, response) ||
        (this.challenges !== undefined && this.listenerCount("request") > 1 && this.challenges(request, response)))
    return answered || super.emit(event, ...args)
  }
}

export type GatewayNodeServer = GatewayServer

export const createGatewayServer = (reads: ServiceReadCache["Service"], timeouts: ServerTimeouts): GatewayNodeServer =>
  new GatewayServer(reads, timeouts)
