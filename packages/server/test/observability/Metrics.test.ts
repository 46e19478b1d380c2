import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"
import { checkHistogram, type Family, parsePrometheusText, sampleValue } from "./PrometheusText.ts"

/**
 * `GET /metrics` on a real started server: effect's metrics in the Prometheus text format, the requests it
 * answered counted by route pattern (never the raw path), method and status, and paid calls by flow and outcome.
 * The registry is the process's, shared with earlier files of this worker: the test reads differences.
 */

const get = (url: string) =>
  Effect.promise(() =>
    fetch(url, { signal: AbortSignal.timeout(5_000) }).then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), body: await r.text() }))
  )

const scrape = Effect.gen(function*() {
  const answer = yield* get(`${yield* BaseUrl}/metrics`)
  assert.strictEqual(answer.status, 200)
  assert.match(answer.type ?? "", /^text\/plain; version=0\.0\.4(; charset=utf-8)?$/)
  return parsePrometheusText(answer.body)
})

const requests = (families: ReadonlyArray<Family>, labels: Record<string, string>) =>
  sampleValue(families, "gateway_http_requests_total", labels) ?? 0

const UNKNOWN_SERVICE = `svc_${"0".repeat(26)}`

describe("metrics", () => {
  layer(layerTestServer(), { excludeTestServices: true })((it) => {
    it.effect("counts requests by route pattern, method and status, times them, and counts paid calls", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const before = yield* scrape
        const listed = requests(before, { route: "/v1/services", method: "GET", status: "200" })
        const unmatched = requests(before, { route: "unmatched", method: "GET", status: "404" })
        const paid = requests(before, { route: "/v1/pay/:serviceId", method: "POST", status: "404" })

        assert.strictEqual((yield* get(`${baseUrl}/v1/services`)).status, 200)
        assert.strictEqual((yield* get(`${baseUrl}/no/such/route-${Date.now()}`)).status, 404)
        const payment = yield* Effect.promise(() => fetch(`${baseUrl}/v1/pay/${UNKNOWN_SERVICE}`, { method: "POST" }))
        assert.strictEqual(payment.status, 404)
        const reason = (yield* Effect.promise(() => payment.json() as Promise<{ reason: string }>)).reason
        // Other test files in this worker count paid calls too: the series is this outcome's alone.
        const refused = sampleValue(before, "gateway_paid_calls_total", { flow: "challenge", outcome: reason }) ?? 0

        const after = yield* scrape
        assert.strictEqual(requests(after, { route: "/v1/services", method: "GET", status: "200" }), listed + 1)
        assert.strictEqual(requests(after, { route: "unmatched", method: "GET", status: "404" }), unmatched + 1)
        assert.strictEqual(requests(after, { route: "/v1/pay/:serviceId", method: "POST", status: "404" }), paid + 1)
        assert.strictEqual(sampleValue(after, "gateway_paid_calls_total", { flow: "challenge", outcome: reason }), refused + 1)
        // No series is labelled with a raw path.
        const routes = after.flatMap((f) => f.samples).flatMap((s) => (s.labels["route"] === undefined ? [] : [s.labels["route"]]))
        assert.notInclude(routes, `/v1/pay/${UNKNOWN_SERVICE}`)
        assert.isTrue(routes.every((route) => route === "unmatched" || route.startsWith("/")))

        const families = new Map(after.map((f) => [f.name, f]))
        assert.strictEqual(families.get("gateway_http_requests_total")?.type, "counter")
        assert.strictEqual(families.get("gateway_paid_calls_total")?.type, "counter")
        const duration = families.get("gateway_http_request_duration_seconds")
        if (duration === undefined) return assert.fail("no gateway_http_request_duration_seconds")
        assert.strictEqual(duration.type, "histogram")
        checkHistogram(duration)
        assert.isAtLeast(sampleValue(after, "gateway_http_request_duration_seconds_count", { route: "/v1/services", method: "GET" }) ?? 0, 1)
        for (const family of after) assert.isDefined(family.help, `${family.name} has a HELP line`)
      }))
  })
})

describe("the exposition format", () => {
  it.effect("escapes label values and help text, and writes histograms whole", () =>
    Effect.gen(function*() {
      const counter = Metric.counter("odd_total", { description: "with \\ and\nnewline" })
      yield* Metric.update(Metric.withAttributes(counter, { value: "a\"b\\c\nd" }), 2)
      const histogram = Metric.histogram("odd_seconds", { boundaries: [0.1, 1] })
      yield* Metric.update(histogram, 0.5)
      yield* Metric.update(histogram, 5)
      const families = parsePrometheusText(yield* PrometheusMetrics.format())
      assert.deepStrictEqual(families.find((f) => f.name === "odd_total"), {
        name: "odd_total",
        type: "counter",
        help: "with \\ and\nnewline",
        samples: [{ name: "odd_total", labels: { value: "a\"b\\c\nd" }, value: 2 }]
      })
      const seconds = families.find((f) => f.name === "odd_seconds")
      if (seconds === undefined) return assert.fail("no odd_seconds")
      checkHistogram(seconds)
      assert.deepStrictEqual(seconds.samples.map((s) => [s.name, s.labels["le"], s.value]), [
        ["odd_seconds_bucket", "0.1", 0],
        ["odd_seconds_bucket", "1", 1],
        ["odd_seconds_bucket", "+Inf", 2],
        ["odd_seconds_sum", undefined, 5.5],
        ["odd_seconds_count", undefined, 2]
      ])
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map())))

  it("refuses lines that are not the exposition format", () => {
    for (const bad of ["x 1", "# TYPE x counter\nx{a=\"b} 1", "# TYPE x counter\nx{a=b} 1", "# TYPE x counter\nx one", "# TYPE x widget"]) {
      assert.throws(() => parsePrometheusText(`${bad}\n`))
    }
  })
})
