import { Effect } from "effect"
import { rawRequest } from "./PaidEnv.ts"

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: Record<string, unknown>
}

/**
 * A JSON POST sent as a given client would send it: from `localAddress` (the whole of 127/8 is loopback, so
 * 127.0.0.2 is a second client on this machine) with any headers, `X-Forwarded-For` included.
 */
export const postJson = (
  url: string,
  body: unknown,
  options: { readonly localAddress?: string; readonly headers?: Readonly<Record<string, string>> } = {}
): Effect.Effect<RawAnswer> =>
  Effect.map(
    rawRequest(url, {
      method: "POST",
      headers: { ...options.headers, "content-type": "application/json" },
      body: new TextEncoder().encode(JSON.stringify(body)),
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
    }),
    (answer) => ({ status: answer.status, headers: answer.headers, body: JSON.parse(answer.text) as Record<string, unknown> })
  )

/**
 * Waits, if need be, until at least `seconds` are left in the current minute: limits count in windows aligned
 * to the minute, so a test that fills one must not straddle two.
 */
export const awayFromMinuteEdge = (seconds = 15) =>
  Effect.suspend(() => {
    const left = 60_000 - (Date.now() % 60_000)
    return left >= seconds * 1000 ? Effect.void : Effect.sleep(left + 50)
  })
