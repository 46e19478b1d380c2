import { randomUUID } from "node:crypto"
import { Config, Effect, Layer, Logger, References } from "effect"
import { HttpServerRequest } from "effect/http"

/**
 * Structured logs: one JSON object per line when stdout is not a terminal (what
 * log collectors parse), readable lines on a terminal. `LOG_LEVEL` (default
 * Info) sets the floor; `Warn` drops the per-request access lines.
 */
export const layerLogging = Layer.unwrap(
  Effect.gen(function*() {
    const level = yield* Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault("Info"))
    // JSON lines are written in batches: one write per 50 ms instead of one per request keeps the
    // access log from costing a syscall on every call.
    const logger = process.stdout.isTTY
      ? Effect.succeed(Logger.consolePretty())
      : Logger.batched(Logger.formatJson, {
        window: "50 millis",
        flush: (lines) => Effect.sync(() => process.stdout.write(`${lines.join("\n")}\n`))
      })
    return Layer.merge(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, level))
  })
)

/** Longest caller-supplied request id kept; anything else gets a fresh one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/

/**
 * Annotates every log line of a request, the access line included, with its
 * request id: the caller's `x-request-id` when it is a plain token, else a new UUID.
 */
export const withRequestId = <A, E, R>(app: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const given = (yield* HttpServerRequest.HttpServerRequest).headers["x-request-id"]
    return yield* Effect.annotateLogs(app, "requestId", given !== undefined && REQUEST_ID.test(given) ? given : randomUUID())
  })
