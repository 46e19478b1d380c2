import { PrometheusMetrics } from "effect/observability"

/**
 * `GET /metrics`: every effect metric of the process (observability/HttpMetrics.ts, PaidCallMetrics.ts) in the
 * Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`), effect's own serializer. It asks for no
 * credential: operators scrape it on the private network, and it names route patterns and counts, never a caller.
 */
export const MetricsRoute = PrometheusMetrics.layerHttp({ path: "/metrics" })
