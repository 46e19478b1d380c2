import { connect, type AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../Config.ts"
import { ServiceReadCache } from "../catalog/ServiceReadCache.ts"
import { createGatewayServer, type ServerTimeouts } from "./GatewayNodeServer.ts"

const withServer = async (
  run: (origin: string, server: ReturnType<typeof createGatewayServer>, reads: ServiceReadCache["Service"]) => Promise<void>,
  timeouts: ServerTimeouts = defaults
) => {
  const reads = Effect.runSync(Effect.provide(Effect.gen(function*() {
    return yield* ServiceReadCache
  }), ServiceReadCache.layer))
  const server = createGatewayServer(reads, timeouts)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, reads)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

describe("the gateway's node:http server", () => {
  it("answers 503 with the error body until the app's handler is attached, then leaves requests to it", () =>
    withServer(async (origin, server) => {
      const starting = await fetch(`${origin}/health`)
      assert.strictEqual(starting.status, 503)
      assert.deepStrictEqual(await starting.json(), { ok: false, code: "UNAVAILABLE", message: "The gateway is starting", reason: "starting" })
      server.on("request", (_request, response) => response.end("app"))
      const served = await fetch(`${origin}/health`)
      assert.strictEqual(served.status, 200)
      assert.strictEqual(await served.text(), "app")
    }))

  it("answers a fresh hot read itself (200, or 304 for its tag) and leaves every other request, and an invalidated read, to the app", () =>
    withServer(async (origin, server, reads) => {
      server.on("request", (_request, response) => response.end("app"))
      const bytes = new TextEncoder().encode(`{"id":"svc_1"}`)
      const readAt = reads.generation()
      reads.invalidate("svc_0")
      reads.put("/v1/services/svc_1", { bytes, contentType: "application/json", etag: `W/"abc"` }, readAt)
      assert.strictEqual(await (await fetch(`${origin}/v1/services/svc_1`)).text(), "app", "an answer read before an invalidation is not kept")
      reads.put("/v1/services/svc_1", { bytes, contentType: "application/json", etag: `W/"abc"` }, reads.generation())
      const hit = await fetch(`${origin}/v1/services/svc_1`)
      assert.strictEqual(hit.status, 200)
      assert.strictEqual(await hit.text(), `{"id":"svc_1"}`)
      assert.strictEqual(hit.headers.get("etag"), `W/"abc"`)
      assert.strictEqual(hit.headers.get("cache-control"), "public, max-age=5")
      assert.strictEqual((await fetch(`${origin}/v1/services/svc_1`, { headers: { "if-none-match": `"x", W/"abc"` } })).status, 304)
      assert.strictEqual(await (await fetch(`${origin}/v1/services/svc_2`)).text(), "app")
      assert.strictEqual(await (await fetch(`${origin}/v1/services/svc_1`, { method: "POST" })).text(), "app")
      reads.invalidate("svc_1")
      assert.strictEqual(await (await fetch(`${origin}/v1/services/svc_1`)).text(), "app")
    }))

  it("asks the early answer (plain 402s) only once the app's handler is attached, and leaves to the app what it declines", () =>
    withServer(async (origin, server) => {
      const asked: Array<string> = []
      server.answerChallengesWith((request, response) => {
        asked.push(request.url ?? "")
        if (request.url !== "/v1/pay/early") return false
        response.writeHead(402).end("early")
        return true
      })
      assert.strictEqual((await fetch(`${origin}/v1/pay/early`)).status, 503, "nothing is answered while the gateway starts")
      assert.deepStrictEqual(asked, [])
      server.on("request", (_request, response) => response.end("app"))
      assert.strictEqual(await (await fetch(`${origin}/v1/pay/early`)).text(), "early")
      assert.strictEqual(await (await fetch(`${origin}/v1/pay/late`)).text(), "app")
      assert.deepStrictEqual(asked, ["/v1/pay/early", "/v1/pay/late"])
    }))

  it("cuts a body that trickles in at the request timeout with the error body", () =>
    withServer(async (origin, server) => {
      server.on("request", (request: NodeJS.ReadableStream) => request.resume())
      const { hostname, port } = new URL(origin)
      const started = Date.now()
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname)
        let text = ""
        const drip = setInterval(() => socket.writable && socket.write(" "), 50)
        socket.on("connect", () => socket.write("POST /v1/auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"))
        socket.on("data", (chunk) => {
          text += chunk.toString("utf8")
        })
        socket.on("error", () => undefined)
        socket.on("close", () => {
          clearInterval(drip)
          resolve(text)
        })
      })
      const elapsed = Date.now() - started
      assert.isAtLeast(elapsed, 400)
      assert.isBelow(elapsed, 2_000)
      assert.match(answer, /^HTTP\/1\.1 400 /)
      assert.include(answer, `"reason":"request_timeout"`)
    }, { requestTimeoutMs: 500, headersTimeoutMs: 300, keepAliveTimeoutMs: 300 }))
})
