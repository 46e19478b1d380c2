import { assert, describe, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import { IpNetwork } from "effect/net"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const PROTOCOL_VERSION = "2025-11-25"
const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" }

const rpc = (method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
const INITIALIZE = rpc("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "flood", version: "1" } })

/** Starts a session as an MCP client does (from `client`, named by X-Forwarded-For, when given): its `Mcp-Session-Id`. */
const initialize = (baseUrl: string, client?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: client === undefined ? ACCEPT : { ...ACCEPT, "x-forwarded-for": client },
      body: INITIALIZE
    })
    await response.arrayBuffer()
    const id = response.headers.get("mcp-session-id")
    if (id === null) throw new Error(`initialize answered ${response.status} without a session`)
    return id
  })

/** The status a request on session `id` gets: 200 while the transport holds the session, 404 once it is gone. */
const ping = (baseUrl: string, id: string, method = "ping") =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { ...ACCEPT, "mcp-session-id": id, "mcp-protocol-version": PROTOCOL_VERSION },
      body: rpc(method)
    })
    return { status: response.status, body: await response.text() }
  })

/** How many of `ids` effect's transport still holds: the count of what the process keeps for them. */
const liveCount = (baseUrl: string, ids: ReadonlyArray<string>) =>
  Effect.map(Effect.forEach(ids, (id) => ping(baseUrl, id), { concurrency: 8 }), (answers) => answers.filter((a) => a.status === 200).length)

const FLOOD = 2_000
const loopback = Result.getOrThrow(IpNetwork.fromString("127.0.0.1/32"))

/**
 * Threat: a client calling `initialize` without end (1,200 a second from one
 * client), each session kept by effect's Streamable HTTP transport forever, so
 * the process grows until it dies. Sessions are now bounded per client and in
 * all, and end when idle; evicted and idle ones are terminated in the
 * transport, which then answers 404 for them.
 */
describe("security: MCP sessions are bounded", () => {
  layer(layerTestServer({ mcpMaxSessions: 200, mcpSessionsPerClient: 50, trustedProxies: [loopback] }), { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("2,000 initializes from one client leave only its newest 50 sessions in the transport; another client's session keeps working", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const kept = yield* initialize(baseUrl)
        assert.strictEqual((yield* ping(baseUrl, kept)).status, 200)
        const flood = yield* Effect.forEach(Array.from({ length: FLOOD }), () => initialize(baseUrl, "203.0.113.7"), { concurrency: 8 })

        // The transport itself holds only the newest 50 (each held session was ~0.7 KiB of heap, for good).
        assert.strictEqual(yield* liveCount(baseUrl, flood.slice(-50)), 50)
        assert.strictEqual(yield* liveCount(baseUrl, flood), 50)

        const tools = yield* ping(baseUrl, kept, "tools/list")
        assert.strictEqual(tools.status, 200)
        assert.include(tools.body, "search_services")
      }))

    it.effect("2,000 initializes from 2,000 clients leave at most 200 sessions in all", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ids = yield* Effect.forEach(
          Array.from({ length: FLOOD }, (_, i) => `10.1.${i >> 8}.${i & 255}`),
          (client) => initialize(baseUrl, client),
          { concurrency: 8 }
        )
        assert.isAtMost(yield* liveCount(baseUrl, ids), 200)
        assert.strictEqual(yield* liveCount(baseUrl, ids.slice(-100)), 100)
      }))
  })

  layer(layerTestServer({ mcpSessionIdleMs: 300 }), { excludeTestServices: true })((it) => {
    it.effect("a session idle past MCP_SESSION_IDLE_MS is ended; one in use is not", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const idle = yield* initialize(baseUrl)
        const used = yield* initialize(baseUrl)
        for (let i = 0; i < 10; i++) {
          yield* Effect.sleep("100 millis")
          assert.strictEqual((yield* ping(baseUrl, used)).status, 200)
        }
        assert.strictEqual((yield* ping(baseUrl, idle)).status, 404)
        assert.strictEqual((yield* ping(baseUrl, used)).status, 200)
      }))

    it.effect("a client still ends its own session with DELETE", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const id = yield* initialize(baseUrl)
        const ended = yield* Effect.promise(() => fetch(`${baseUrl}/mcp`, { method: "DELETE", headers: { "mcp-session-id": id } }))
        assert.strictEqual(ended.status, 204)
        assert.strictEqual((yield* ping(baseUrl, id)).status, 404)
      }))

    it.effect("a DELETE the transport refuses (an Origin) ends nothing, and the session stays bounded", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const id = yield* initialize(baseUrl)
        const refused = yield* Effect.promise(() =>
          fetch(`${baseUrl}/mcp`, { method: "DELETE", headers: { "mcp-session-id": id, origin: "https://site.example" } })
        )
        assert.strictEqual(refused.status, 403)
        assert.strictEqual((yield* ping(baseUrl, id)).status, 200)
        // Still in the table, so its idle time still ends it.
        yield* Effect.sleep("1 second")
        assert.strictEqual((yield* ping(baseUrl, id)).status, 404)
      }))
  })
})
