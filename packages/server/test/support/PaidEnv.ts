import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import type { AppConfigShape } from "../../src/Config.ts"
import { fundedOwner, grantedAgent, liveService } from "./Scenario.ts"
import { TestLedger } from "./TestLedger.ts"
import { BaseUrl, layerTestServer } from "./TestServer.ts"

/** A live 40-MIST service at `upstreamUrl` and a fresh agent with a finalized grant that can pay it. */
export const paidService = (upstreamUrl: string, method: "GET" | "POST" = "GET") =>
  Effect.gen(function*() {
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const { entry } = yield* liveService(client, { price: 40n, upstreamUrl, method })
    const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: `paid-${entry.id}`, budget: 10_000n, perPayment: 100n })
    return { entry, agentKey, manifest }
  })

/** A request through node:http, which (unlike fetch) sends any header, `Expect` and `Upgrade` included, from any local address; status and body text. */
export const rawRequest = (
  url: string,
  init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: Uint8Array; readonly localAddress?: string }
) =>
  Effect.promise(() =>
    new Promise<{ status: number; headers: Record<string, string | Array<string> | undefined>; text: string }>((resolve, reject) => {
      const options = { method: init.method ?? "GET", headers: init.headers ?? {}, ...(init.localAddress === undefined ? {} : { localAddress: init.localAddress }) }
      const request = httpRequest(url, options, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString() }))
        response.on("error", reject)
      })
      request.on("error", reject)
      const expects = Object.entries(init.headers ?? {}).some(([k, v]) => k.toLowerCase() === "expect" && v.toLowerCase() === "100-continue")
      // With Expect: 100-continue the body waits for the server's go-ahead, as a conforming client does.
      if (expects) request.on("continue", () => request.end(init.body))
      else request.end(init.body)
    })
  )

/** A test gateway (ledger checkpointing by itself) whose only allow-listed upstreams are the given URLs' `host:port`s. */
export const gatewayFor = (urls: ReadonlyArray<string>, overrides: Partial<AppConfigShape> = {}) =>
  Layer.mergeAll(
    TestLedger.layer.pipe(
      Layer.provideMerge(layerTestServer({ ledgerCheckpointMs: 20, upstreamAllowHosts: urls.map((u) => new URL(u).host), ...overrides }))
    ),
    FetchLayer
  )

/** A loopback HTTP server for one test's lifetime, answering with `handler`; its base URL and the paths it was asked for. */
export const serve = (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ server: Server; url: string; calls: Array<string> }>((resolve) => {
        const calls: Array<string> = []
        const server = createServer((request, response) => {
          calls.push(request.url ?? "")
          handler(request, response)
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resolve({ server, url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, calls })
        })
      })
    ),
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      )
  ).pipe(Effect.map(({ url, calls }) => ({ url, calls })))
