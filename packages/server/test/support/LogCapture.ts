import { Cause, Layer, Logger, References } from "effect"

/** One log line the server wrote: its level, message with cause, and annotations. */
export interface CapturedLog {
  readonly level: string
  readonly text: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Everything a line says, for tests that look for a secret anywhere in it. */
export const wholeLine = (line: CapturedLog) => `${line.text} ${JSON.stringify(line.annotations)}`

/**
 * A logger that keeps every line the server writes, at every level, so a test
 * can assert on levels (a hang-up is Info, not Error) or on content (a secret
 * never appears).
 */
export const captureLogs = () => {
  const logs: Array<CapturedLog> = []
  const layer = Layer.mergeAll(
    Logger.layer([Logger.make((options) => {
      logs.push({
        level: options.logLevel,
        text: `${String(options.message)} ${Cause.pretty(options.cause)}`,
        annotations: options.fiber.getRef(References.CurrentLogAnnotations)
      })
    })]),
    Layer.succeed(References.MinimumLogLevel, "All")
  )
  return { logs, layer }
}
