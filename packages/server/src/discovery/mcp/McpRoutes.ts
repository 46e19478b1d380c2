import { Clock, Duration, Effect, Layer, Option, Schedule } from "effect"
import { McpServer } from "effect/ai"
import { HttpEffect, HttpRouter, HttpServerRequest } from "effect/http"
import { clientKey } from "@gateway/domain/limits/ClientKey"
import { AppConfig } from "../../Config.ts"
import { McpErrorBodies } from "./McpErrorBodies.ts"
import { DiscoveryToolHandlers, DiscoveryTools } from "./DiscoveryTools.ts"
import { McpSessionTable } from "./McpSessionTable.ts"
import { MCP_PATH, PROTOCOLS, SERVER_NAME, SERVER_VERSION } from "./ServerCard.ts"

/**
 * effect's Streamable HTTP transport: the discovery tools, open to any client
 * as the catalog is. Requests carrying an `Origin` are refused (effect's
 * default), so a web page cannot drive it from a visitor's browser; agents and
 * MCP clients send none.
 */
const McpTransport = McpServer.layerHttp({
  name: SERVER_NAME,
  version: SERVER_VERSION,
  description: "Discover the gateway's paid services, read their terms, and learn how to pay for a call.",
  path: MCP_PATH,
  protocols: PROTOCOLS,
  allowSessionTermination: true,
  registrations: McpServer.toolkit(DiscoveryTools).pipe(Layer.provide(DiscoveryToolHandlers))
}).pipe(Layer.provide(McpErrorBodies))

const SESSION_HEADER = "mcp-session-id"

/** Every method the transport answers at its path (DELETE ends a session; the others get 405). */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

/** The most time between two sweeps for idle sessions. */
const MAX_SWEEP_INTERVAL_MS = 60_000

/** A session's end as its client would ask for it: the one way into the transport's own session store. */
const deletionOf = (id: string) =>
  HttpServerRequest.fromWeb(new Request(`http://gateway${MCP_PATH}`, { method: "DELETE", headers: { [SESSION_HEADER]: id } }))

/**
 * The gateway's MCP server at `/mcp`, its sessions bounded. effect's
 * transport keeps each `initialize`'s session for good and offers no limit,
 * so it is served from a router of its own, and every request reaches it
 * through here: the sessions it starts are tracked by id, client and last use
 * (McpSessionTable.ts); beyond `MCP_SESSIONS_PER_CLIENT` for one client or
 * `MCP_MAX_SESSIONS` in all, or unused for `MCP_SESSION_IDLE_MS`, a session is
 * ended in the transport with the DELETE a client would send, after which it
 * answers 404 ("initialize again"), as MCP clients expect.
 */
export const McpRoutes = Layer.effectDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const router = yield* HttpRouter.HttpRouter
    // A router of its own (not the memoized HttpRouter.layer, which is the gateway's), so the transport's routes stay behind this one.
    const own = yield* HttpRouter.make
    yield* Layer.build(McpTransport.pipe(Layer.provide(Layer.succeed(HttpRouter.HttpRouter, own))))
    const transport = own.asHttpEffect()
    const sessions = new McpSessionTable({
      maxSessions: config.mcpMaxSessions,
      perClient: config.mcpSessionsPerClient,
      idleMs: config.mcpSessionIdleMs
    })

    const end = (ids: ReadonlyArray<string>) =>
      Effect.forEach(
        ids,
        (id) => transport.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, deletionOf(id)), Effect.scoped, Effect.ignore),
        { discard: true }
      )

    // The transport names a new session in a pre-response handler of its own; this one runs after it and sees the header.
    const track = (client: string): HttpEffect.PreResponseHandler => (_request, response) => {
      const id = response.headers[SESSION_HEADER]
      if (id === undefined) return Effect.succeed(response)
      return Clock.currentTimeMillis.pipe(Effect.flatMap((now) => end(sessions.add(id, client, now))), Effect.as(response))
    }

    const handle = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const id = request.headers[SESSION_HEADER]
        if (id === undefined) {
          // Appended however the call ends, and not cut short by a client hanging up: a session the transport
          // started must reach the table. (The server runs pre-response handlers uninterruptibly.)
          const tracking = HttpEffect.appendPreResponseHandler(track(clientKey(Option.getOrUndefined(request.remoteAddress))))
          return yield* transport.pipe(Effect.ensuring(tracking), Effect.uninterruptible)
        }
        if (sessions.use(id, yield* Clock.currentTimeMillis) === "expired") yield* end([id])
        const response = yield* transport
        // Forgotten only once the transport has ended it: a DELETE it refuses (an Origin, a bad protocol version) ends nothing.
        if (request.method === "DELETE" && response.status >= 200 && response.status < 300) sessions.remove(id)
        return response
      })

    for (const method of METHODS) yield* router.add(method, MCP_PATH, handle)

    const sweep = Effect.flatMap(Clock.currentTimeMillis, (now) => end(sessions.expire(now)))
    const interval = Duration.millis(Math.max(1, Math.min(config.mcpSessionIdleMs, MAX_SWEEP_INTERVAL_MS)))
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(interval)))
  })
)
