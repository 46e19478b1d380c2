import { Config, Effect, Layer, Option } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"

/**
 * Where traces go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces`
 * appended, as the OpenTelemetry specification names them; none when unset or `OTEL_SDK_DISABLED=true`.
 * (effect's own `layerFromConfig` also wants `OTEL_TRACES_EXPORTER=otlp`, which the specification defaults.)
 */
const tracesUrlOf = (base: URL) => {
  const url = new URL(base)
  url.pathname = `${base.pathname.replace(/\/$/, "")}/v1/traces`
  return url
}

const tracesEndpoint = Config.all({
  disabled: Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  traces: Config.option(Config.URL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  base: Config.option(Config.URL("OTEL_EXPORTER_OTLP_ENDPOINT")),
  scheduleDelayMs: Config.option(Config.Int("OTEL_BSP_SCHEDULE_DELAY"))
}).pipe(Config.map(({ disabled, traces, base, scheduleDelayMs }) => {
  const url = Option.orElse(traces, () => Option.map(base, tracesUrlOf))
  return disabled ? Option.none() : Option.map(url, (u) => ({ url: u.toString(), scheduleDelayMs: Option.getOrUndefined(scheduleDelayMs) }))
}))

/**
 * Traces over OTLP/HTTP (JSON) when an endpoint is set, through effect's own exporter: every span the gateway
 * makes (`Effect.fn` names, the SQL and chain calls, the HTTP server's) goes to the collector in batches.
 * Unset, nothing is exported and nothing is sent.
 */
export const layerTracing = Layer.unwrap(Effect.map(tracesEndpoint, Option.match({
  onNone: () => Layer.empty,
  onSome: ({ url, scheduleDelayMs }) =>
    OtlpTracer.layer({ url, resource: { serviceName: "sui-gateway" }, ...(scheduleDelayMs === undefined ? {} : { exportInterval: scheduleDelayMs }) }).pipe(
      Layer.provide(OtlpSerialization.layerJson),
      Layer.provide(FetchHttpClient.layer)
    )
}))).pipe(Layer.orDie)
