import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Tracer } from "effect"
import { UpstreamForwarder } from "./UpstreamForwarder.ts"

const SECRET = "seller-secret-never-in-a-span"

/** A seller answering every call with `{"ok":true}` and keeping the headers it received. */
const seller = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ readonly url: string; readonly close: () => void; readonly received: Array<IncomingHttpHeaders> }>((resolve) => {
      const received: Array<IncomingHttpHeaders> = []
      const server = createServer((request, response) => {
        received.push(request.headers)
        response.writeHead(200, { "content-type": "application/json" }).end(`{"ok":true}`)
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          received,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        }))
    })
  ),
  ({ close }) => Effect.sync(close)
)

describe("the upstream call's span", () => {
  it.live("is one upstream.forward span naming method, host and outcome, with no credential, path or query, and no trace context sent", () =>
    Effect.gen(function*() {
      const upstream = yield* seller
      const spans: Array<Tracer.Span> = []
      const base = yield* Effect.tracer
      const tracer = Tracer.make({
        span(options) {
          const span = base.span(options)
          spans.push(span)
          return span
        }
      })
      const host = new URL(upstream.url).host
      const forwarder = yield* UpstreamForwarder
      const answer = yield* forwarder.call(
        { url: `${upstream.url}/answer?token=${SECRET}`, method: "GET", headers: { authorization: `Bearer ${SECRET}` }, body: undefined },
        { allowHosts: [host], ownHosts: [], maxBodyBytes: 1024, timeoutMs: 5_000 }
      ).pipe(Effect.withTracer(tracer))
      assert.strictEqual(answer._tag, "Answered")
      assert.deepStrictEqual(spans.map((s) => s.name), ["upstream.forward"])
      const attributes = Object.fromEntries(spans[0]?.attributes ?? [])
      assert.deepStrictEqual(attributes, {
        "http.request.method": "GET",
        "server.address": "127.0.0.1",
        "server.port": Number(new URL(upstream.url).port),
        "upstream.allow_listed": true,
        "upstream.outcome": "Answered",
        "http.response.status_code": 200,
        "http.response.body.size": 11
      })
      assert.notInclude(JSON.stringify(attributes), SECRET)
      assert.strictEqual(upstream.received[0]?.authorization, `Bearer ${SECRET}`)
      assert.notProperty(upstream.received[0], "traceparent")
      assert.notProperty(upstream.received[0], "b3")
    }).pipe(Effect.scoped, Effect.provide(UpstreamForwarder.layer)))
})
