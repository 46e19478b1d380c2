import { randomUUID } from "node:crypto"
import { Config, ConfigProvider, Effect, Formatter, Layer, Logger, LogLevel, References } from "effect"
import { HttpServerRequest } from "effect/http"

/**
 * `LOG_LEVEL` in any case (`debug`, `INFO`, `warn`…), default Info: trimmed and
 * matched case-insensitively against effect's level names; anything else is a
 * configuration error naming the variable and the accepted values.
 */
export const logLevelConfig: Config.Config<LogLevel.LogLevel> = Config.String("LOG_LEVEL").pipe(
  Config.withDefault("Info"),
  Config.flatMap((raw) => {
    const wanted = raw.trim().toLowerCase()
    const level = LogLevel.values.find((name) => name.toLowerCase() === wanted)
    return level !== undefined
      ? Config.succeed(level)
      : Config.fail(
        new ConfigProvider.SourceError({
          message: `LOG_LEVEL must be one of ${LogLevel.values.join(", ")} (any case), got ${JSON.stringify(raw)}`
        })
      )
  })
)

/**
 * A log call's message as one string: effect hands the logger the call's
 * arguments (an array when there are several); strings are kept, anything else
 * JSON-encoded, and the parts joined by a space.
 */
export const messageText = (message: unknown): string =>
  (Array.isArray(message) ? message : [message])
    .map((part) => (typeof part === "string" ? part : Formatter.formatJson(part)))
    .join(" ")

/** effect's JSON line with `message` always a string (log collectors index it as text). */
export const formatJsonLine = Logger.map(
  Logger.formatStructured,
  (entry) => Formatter.formatJson({ ...entry, message: messageText(entry.message) })
)

/**
 * Structured logs: one JSON object per line when stdout is not a terminal (what
 * log collectors parse), readable lines on a terminal. `LOG_LEVEL` (default
 * Info) sets the floor; `Warn` drops the per-request access lines.
 */
export const layerLogging = Layer.unwrap(
  Effect.gen(function*() {
    const level = yield* logLevelConfig
    // JSON lines are written in batches: one write per 50 ms instead of one per request keeps the
    // access log from costing a syscall on every call.
    const logger = process.stdout.isTTY
      ? Effect.succeed(Logger.consolePretty())
      : Logger.batched(formatJsonLine, {
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
