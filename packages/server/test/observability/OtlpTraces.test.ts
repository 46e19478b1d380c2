import { createServer } from "node:http"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type RunningServer, startGateway } from "../../../../scripts/bench/ServerProcess.ts"
import { buildServer } from "../../build.ts"

interface ExportedSpan {
  readonly name: string
}

interface TracePayload {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }> }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<ExportedSpan> }>
  }>
}

/** A stand-in OTLP/HTTP collector: it keeps every JSON payload POSTed to /v1/traces. */
const collector = () =>
  new Promise<{ readonly url: string; readonly payloads: Array<TracePayload>; readonly close: () => void }>((resolve) => {
    const payloads: Array<TracePayload> = []
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        if (request.method === "POST" && request.url === "/v1/traces") payloads.push(JSON.parse(Buffer.concat(chunks).toString()) as TracePayload)
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}`, payloads, close: () => server.close() })
    })
  })

/** The bundle `npm start` runs, with `OTEL_EXPORTER_OTLP_ENDPOINT` set: its spans reach the collector over OTLP/HTTP. */
describe("traces over OTLP", () => {
  const running: Array<RunningServer> = []
  beforeAll(() => buildServer(), 120_000)
  afterAll(async () => {
    for (const gateway of running) await gateway.stop()
  })

  it("with the endpoint set, the gateway's spans reach the collector, named, under service.name sui-gateway", async () => {
    const otlp = await collector()
    const gateway = await startGateway({ DATA_DIR: "memory://", OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: "100" })
    running.push(gateway)
    await fetch(`${gateway.url}/v1/services`).then((r) => r.text())
    const names = () => otlp.payloads.flatMap((p) => p.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name))))
    // The request's own spans: its HTTP server span and the catalog's use case under it.
    const ofTheRequest = () => names().some((name) => name.startsWith("Catalog."))
    for (const started = Date.now(); !ofTheRequest() && Date.now() - started < 20_000;) await new Promise((r) => setTimeout(r, 100))
    assert.isTrue(ofTheRequest(), names().join(", "))
    const services = otlp.payloads.flatMap((p) => p.resourceSpans.flatMap((r) => r.resource.attributes.filter((a) => a.key === "service.name")))
    assert.include(services.map((a) => a.value.stringValue), "sui-gateway")
    otlp.close()
  }, 120_000)

  it("without it, nothing is exported: the gateway serves as before", async () => {
    const otlp = await collector()
    const gateway = await startGateway({ DATA_DIR: "memory://", OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_BSP_SCHEDULE_DELAY: "100" })
    running.push(gateway)
    assert.strictEqual(await fetch(`${gateway.url}/v1/services`).then((r) => r.status), 200)
    await new Promise((r) => setTimeout(r, 500))
    assert.strictEqual(otlp.payloads.length, 0)
    otlp.close()
  }, 120_000)
})
