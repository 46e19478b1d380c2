import { Context, Effect, Exit, Metric } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, type HttpServerResponse } from "effect/http"

/** The route label of a request no route matched (a 404 from the router): one series, whatever the path. */
export const UNMATCHED = "unmatched"

export const httpRequests = Metric.counter("gateway_http_requests_total", {
  description: "HTTP requests answered, by route pattern, method and status",
  incremental: true
})

export const httpRequestDuration = Metric.histogram("gateway_http_request_duration_seconds", {
  description: "Time to answer an HTTP request, in seconds, by route pattern and method",
  boundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

/** One answered request, counted and timed: `route` is a route pattern (`/v1/pay/:serviceId`), never a raw path. */
export const recordRequestUnsafe = (context: Context.Context<never>, route: string, method: string, status: number, seconds: number) => {
  Metric.withAttributes(httpRequests, { route, method, status: String(status) }).updateUnsafe(1, context)
  Metric.withAttributes(httpRequestDuration, { route, method }).updateUnsafe(seconds, context)
}

/** Where the router writes the pattern of the route it matched, for the request's own fiber to read once answered. */
const MatchedRoute = Context.Reference<{ route: string | undefined } | undefined>("@gateway/server/observability/MatchedRoute", {
  defaultValue: () => undefined
})

/**
 * Route middleware, provided to every route layer: notes the matched route's pattern. The router adds the
 * route to the context only inside the route's handler, so the request-wide middleware cannot read it itself.
 */
export const NoteMatchedRoute = HttpRouter.middleware((handler) =>
  Effect.withFiber((fiber) => {
    const slot = fiber.getRef(MatchedRoute)
    const matched = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)
    if (slot !== undefined && matched !== undefined) slot.route = matched.route.path
    return handler
  })
).layer

const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : HttpServerError.causeResponseStripped(exit.cause)[0].status

/** Request-wide middleware: every request the app answers, counted by route, method and status, and timed. */
export const recordHttpMetrics = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.withFiber<HttpServerResponse.HttpServerResponse, E, R>((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const slot: { route: string | undefined } = { route: undefined }
    const started = performance.now()
    return app.pipe(
      Effect.provideService(MatchedRoute, slot),
      Effect.onExit((exit) =>
        Effect.withFiber((done) => {
          const seconds = (performance.now() - started) / 1000
          recordRequestUnsafe(done.context, slot.route ?? UNMATCHED, request.method, statusOf(exit), seconds)
          return Effect.void
        })
      )
    )
  })
