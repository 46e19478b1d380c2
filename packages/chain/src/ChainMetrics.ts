import { Effect, Exit, Metric } from "effect"

/** Every call the gateway makes to its Sui node, timed: the method and whether it answered. */
export const chainCallDuration = Metric.histogram("gateway_chain_call_duration_seconds", {
  description: "Time of a call to the Sui node, in seconds, by gRPC method and outcome (ok, error)",
  boundaries: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
})

export const chainCallErrors = Metric.counter("gateway_chain_call_errors_total", {
  description: "Calls to the Sui node that failed (unreachable, timed out, refused), by gRPC method",
  incremental: true
})

/** Times `self`, a call to the node's `method`, and counts it as an error when it fails. */
export const timedChainCall = (method: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.sync(() => performance.now()), (started) =>
    Effect.onExit(self, (exit) => {
      const outcome = Exit.isSuccess(exit) ? "ok" : "error"
      const seconds = (performance.now() - started) / 1000
      return Effect.andThen(
        Metric.update(Metric.withAttributes(chainCallDuration, { method, outcome }), seconds),
        Exit.isSuccess(exit) ? Effect.void : Metric.update(Metric.withAttributes(chainCallErrors, { method }), 1)
      )
    }))
