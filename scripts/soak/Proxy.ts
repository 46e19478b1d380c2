import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from "node:http"

/** One replica the proxy forwards to: its name in the report and its loopback port (kept across a restart). */
export interface Target {
  readonly name: string
  readonly port: number
}

/**
 * The proxy's answer to a request whose replica died under it (connection reset after the request went
 * out): 503 with the gateway's own error body, so the API client decodes it as the 503 it is and a
 * caller may retry; `reason` marks it as the proxy's, never the gateway's.
 */
export const REPLICA_LOST = "replica_lost"
const NO_REPLICA = "no_replica"

/** A request that reached a replica and got no answer from it. */
export interface Lost {
  readonly replica: string
  readonly kind: string
  readonly atMs: number
  readonly error: string
  /** The answer had begun: status and headers went out, the body was cut short. */
  readonly cut: boolean
}

/** Hop-by-hop headers are the proxy's own business on each side; every other header passes unchanged. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te", "trailer"])
const endToEnd = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP.has(name)))

/** A route as the report groups it: the path without its query, ids (anything with a digit, 8+ long) as `:id`. */
export const kindOf = (method: string, url: string) => {
  const path = (url.split("?")[0] ?? "").split("/").map((segment) => (segment.length >= 8 && /\d/.test(segment) ? ":id" : segment)).join("/")
  return `${method} ${path}`
}

/** A refused connection means the request never reached that replica: only then may it go to the next. */
const refused = (error: NodeJS.ErrnoException) => error.code === "ECONNREFUSED"

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks)))
    req.on("error", reject)
  })

/** Counts by kind and status, answers the proxy gave itself, requests still open. */
const makeLedger = () => {
  const byKind = new Map<string, Map<string, number>>()
  const byReplica = new Map<string, number>()
  const lost: Array<Lost> = []
  const open = new Map<number, { readonly kind: string; replica: string | undefined; readonly startedMs: number }>()
  let received = 0
  let answered = 0
  let retries = 0
  const count = (kind: string, status: string) => {
    const row = byKind.get(kind) ?? new Map<string, number>()
    row.set(status, (row.get(status) ?? 0) + 1)
    byKind.set(kind, row)
  }
  return {
    byKind, byReplica, lost, open, count,
    receive: () => ++received,
    answer: () => void (answered += 1),
    retry: () => void (retries += 1),
    totals: () => ({ received, answered, retries })
  }
}

type Books = ReturnType<typeof makeLedger>

/**
 * Replicas in turn, those known to be down (a refusal in the last 250 ms) last: every replica once per request.
 * A replica taken out of rotation (restarting) gets nothing until it is put back, as a load balancer keeps a
 * replica out until its readiness probe passes: a restarted gateway listens a moment before its handler is
 * attached and answers 503 `starting` meanwhile (GatewayNodeServer.ts), which is for a balancer to avoid.
 */
const roundRobin = (targets: ReadonlyArray<Target>) => {
  const downUntil = new Map<string, number>()
  const outOfRotation = new Set<string>()
  /** Replicas whose last readiness probe failed (a stopping replica answers 503 while it still serves). */
  const notReady = new Set<string>()
  let turn = 0
  const candidates = () => {
    const start = turn++
    const rotation = targets.map((_, i) => targets[(start + i) % targets.length])
      .filter((t): t is Target => t !== undefined && !outOfRotation.has(t.name))
    // As balancers do, fail open: with every replica's readiness failing, send to all rather than to none.
    const ready = rotation.filter((t) => !notReady.has(t.name))
    const order = ready.length > 0 ? ready : rotation
    const now = Date.now()
    const up = (t: Target) => (downUntil.get(t.name) ?? 0) <= now
    return [...order.filter(up), ...order.filter((t) => !up(t))]
  }
  const refusedBy = (target: Target) => void downUntil.set(target.name, Date.now() + 250)
  const rotate = (name: string, inRotation: boolean) => void (inRotation ? outOfRotation.delete(name) : outOfRotation.add(name))
  const probed = (name: string, ready: boolean) => void (ready ? notReady.delete(name) : notReady.add(name))
  return { candidates, refusedBy, rotate, probed }
}

/** How often the proxy probes each replica's `/health/ready`, as a load balancer's health check does. */
const PROBE_EVERY_MS = 200

/**
 * One readiness probe on a fresh connection: its verdict (a 200, or a 503 the replica answered), or none when it did
 * not answer in time (a loaded machine): only an answer moves a replica in or out, refusals are the proxy's own.
 */
const probe = (target: Target) =>
  new Promise<boolean | undefined>((resolve) => {
    const req = request({ host: "127.0.0.1", port: target.port, method: "GET", path: "/health/ready", agent: false, timeout: 2_000 }, (res) => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on("timeout", () => req.destroy())
    req.on("error", () => resolve(undefined))
    req.end()
  })

const own = (res: ServerResponse, status: number, reason: string, message: string) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify({ ok: false, code: "UNAVAILABLE", message, reason }))
}

/** One attempt at one replica: answered (its answer relayed), refused (never reached it), or lost. */
const forwardOnce = (books: Books, target: Target, req: IncomingMessage, body: Buffer, res: ServerResponse, kind: string) =>
  new Promise<"answered" | "refused" | "lost">((resolve) => {
    const headers = { ...endToEnd(req.headers), "content-length": String(body.length) }
    const upstream = request({ host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers, agent: false })
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers))
      answer.pipe(res)
      answer.on("end", () => {
        books.count(kind, String(answer.statusCode))
        resolve("answered")
      })
      answer.on("error", (error) => {
        // The status went out already: all that is left is to cut the answer short, as the replica did.
        books.lost.push({ replica: target.name, kind, atMs: Date.now(), error: error.message, cut: true })
        books.count(kind, `${answer.statusCode} cut short`)
        res.destroy()
        resolve("lost")
      })
    })
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (refused(error)) return resolve("refused")
      if (res.headersSent) return
      books.lost.push({ replica: target.name, kind, atMs: Date.now(), error: error.code ?? error.message, cut: false })
      books.count(kind, `503 ${REPLICA_LOST}`)
      // The replica's name rides in `reason`, so a client's failure tells which replica it lost.
      own(res, 503, `${REPLICA_LOST} ${target.name}`, `Replica ${target.name} failed before answering: ${error.code ?? error.message}`)
      resolve("lost")
    })
    upstream.end(body)
  })

/** Forwards one request: to each replica in turn while they refuse the connection, to none once one has it. */
const handle = async (books: Books, rr: ReturnType<typeof roundRobin>, id: number, req: IncomingMessage, res: ServerResponse) => {
  const kind = kindOf(req.method ?? "GET", req.url ?? "/")
  const entry: { readonly kind: string; replica: string | undefined; readonly startedMs: number } = { kind, replica: undefined, startedMs: Date.now() }
  books.open.set(id, entry)
  // Answered means the whole answer went out; a connection closed before that is an open request no more, but no answer.
  res.on("finish", books.answer)
  res.on("close", () => books.open.delete(id))
  const body = await readBody(req)
  for (const target of rr.candidates()) {
    entry.replica = target.name
    const outcome = await forwardOnce(books, target, req, body, res, kind)
    if (outcome === "refused") {
      rr.refusedBy(target)
      books.retry()
      continue
    }
    if (outcome === "answered") books.byReplica.set(target.name, (books.byReplica.get(target.name) ?? 0) + 1)
    return
  }
  books.count(kind, `503 ${NO_REPLICA}`)
  own(res, 503, NO_REPLICA, "No gateway replica accepted the connection")
}

/**
 * A round-robin HTTP proxy on loopback, in this process: each request goes to the next replica that accepts
 * a connection. A refused connection (a replica down or restarting) is retried on the next one, since the
 * request never reached it; a request that reached a replica is never sent again (it may have paid), and if
 * that replica dies before answering, the proxy answers 503 `replica_lost` itself and records it. Like a load
 * balancer it probes each replica's readiness and sends nothing to one that fails it (a stopping replica). Each
 * request opens its own connection, so a replica's graceful drain never races an idle keep-alive socket.
 */
export const startProxy = async (targets: ReadonlyArray<Target>) => {
  const books = makeLedger()
  const rr = roundRobin(targets)
  let nextId = 0
  const server = createServer((req, res) => {
    books.receive()
    handle(books, rr, nextId++, req, res).catch((error: unknown) => {
      // A defect of the proxy itself: still an answer, and counted, so nothing is silently dropped.
      books.count(kindOf(req.method ?? "GET", req.url ?? "/"), "500 proxy defect")
      if (!res.headersSent) own(res, 500, "proxy_defect", String(error))
      else res.destroy()
    })
  })
  // Lanes keep their connections to the proxy for the whole run.
  server.keepAliveTimeout = 120_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  // A replica leaves the rotation when its readiness fails (stopping, store down) and comes back when it passes.
  const probes = setInterval(() => {
    for (const target of targets) void probe(target).then((ready) => (ready === undefined ? undefined : rr.probed(target.name, ready)))
  }, PROBE_EVERY_MS)
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const close = () =>
    new Promise<void>((resolve) => {
      clearInterval(probes)
      server.close(() => resolve())
      server.closeAllConnections()
    })
  /** Requests a replica holds right now: what a fault on it puts at stake. */
  const inFlight = (name: string) => [...books.open.values()].filter((entry) => entry.replica === name).length
  return { url: `http://127.0.0.1:${port}`, close, books, rotate: rr.rotate, inFlight }
}

export type Proxy = Awaited<ReturnType<typeof startProxy>>
