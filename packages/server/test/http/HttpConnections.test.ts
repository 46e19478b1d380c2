import { connect } from "node:net"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { BaseUrl, layerTestServer, StoreSwitch, SwitchableStore } from "../support/TestServer.ts"
import { captureLogs } from "../support/LogCapture.ts"

const { logs, layer: Capture } = captureLogs()

const REQUEST_TIMEOUT_MS = 1_000

/**
 * A client that sends a JSON POST's headers and then its body one byte every
 * 100 ms, never finishing; resolves with what the server answered and when
 * the connection closed, measured from the first byte.
 */
const slowBody = (baseUrl: string) =>
  Effect.callback<{ readonly answer: string; readonly closedAfterMs: number }>((resume) => {
    const { hostname, port } = new URL(baseUrl)
    const started = Date.now()
    const socket = connect(Number(port), hostname)
    let answer = ""
    const drip = setInterval(() => socket.writable && socket.write(" "), 100)
    socket.on("connect", () =>
      socket.write(`POST /v1/auth/challenge HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`))
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8")
    })
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearInterval(drip)
      resume(Effect.succeed({ answer, closedAfterMs: Date.now() - started }))
    })
    return Effect.sync(() => {
      clearInterval(drip)
      socket.destroy()
    })
  })

/** A client that sends half a body and hangs up. */
const hangUp = (baseUrl: string) =>
  Effect.callback<void>((resume) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    socket.on("connect", () => {
      socket.write(`POST /v1/auth/challenge HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"add`)
      setTimeout(() => socket.destroy(), 100)
    })
    socket.on("close", () => resume(Effect.void))
  })

describe("connections are bounded in time", () => {
  layer(
    layerTestServer({ requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: 500, keepAliveTimeoutMs: 500 }, undefined, Capture),
    { excludeTestServices: true }
  )((it) => {
    it.effect("a body that trickles in is cut off at the request timeout with the error body", () =>
      Effect.gen(function*() {
        const { answer, closedAfterMs } = yield* slowBody(yield* BaseUrl).pipe(Effect.timeout("10 seconds"))
        // Node checks its timers about once a second, so the cut comes within the timeout plus that.
        assert.isAtLeast(closedAfterMs, REQUEST_TIMEOUT_MS - 50)
        assert.isBelow(closedAfterMs, REQUEST_TIMEOUT_MS + 2_000, "the slow body held the connection")
        assert.match(answer, /^HTTP\/1\.1 400 /)
        assert.include(answer, `{"ok":false,"code":"INVALID","message":"The request is invalid","reason":"request_timeout"}`)
      }))

    it.effect("a client that hangs up mid-request is logged at Info, not as an error", () =>
      Effect.gen(function*() {
        logs.length = 0
        yield* hangUp(yield* BaseUrl)
        yield* Effect.sleep("300 millis")
        assert.deepStrictEqual(logs.filter((line) => line.level === "Error" || line.level === "Fatal"), [])
        assert.isTrue(
          logs.some((line) => line.level === "Info" && line.annotations["http.status"] === 499 && line.annotations["http.url"] === "/v1/auth/challenge"),
          JSON.stringify(logs)
        )
      }))
  })
})

describe("health a load balancer can read", () => {
  layer(layerTestServer({}, SwitchableStore).pipe(Layer.provideMerge(SwitchableStore)), { excludeTestServices: true })((it) => {
    it.effect("answers 503 while the store is down, and 200 again once it is back", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const store = yield* StoreSwitch
        const health = Effect.promise(() => fetch(`${baseUrl}/health`).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> })))
        assert.strictEqual((yield* health).status, 200)
        yield* store.down
        const down = yield* health
        assert.strictEqual(down.status, 503)
        assert.include(down.body, { ok: false, store: "down", chain: "up" })
        yield* store.up
        const back = yield* Effect.retry(
          Effect.flatMap(health, (r) => (r.status === 200 ? Effect.succeed(r) : Effect.fail(r))),
          { times: 50 }
        )
        assert.include(back.body, { ok: true, store: "up" })
      }))
  })
})
