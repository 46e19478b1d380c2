import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { type ApiError, isApiError } from "@gateway/domain/Errors"

/** The call must fail with the spec error `code`; yields that error for further checks. */
export const failsWith = <A, E, R>(self: Effect.Effect<A, E, R>, code: ApiError["code"]) =>
  Effect.flip(self).pipe(
    Effect.map((error): ApiError => {
      assert.isTrue(isApiError(error), `expected ${code}, got ${String(error)}`)
      if (!isApiError(error)) throw error
      assert.strictEqual(error.code, code, error.reason)
      return error
    })
  )

/** A limit's answer: 429, the spec's body with RATE_LIMITED and `reason` (and `message`, when given), and a Retry-After within the minute. */
export const expectRateLimited = (
  answer: { readonly status: number; readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>; readonly body: unknown },
  reason: string,
  message?: string
) => {
  assert.strictEqual(answer.status, 429, JSON.stringify(answer.body))
  assert.deepInclude(answer.body, { ok: false, code: "RATE_LIMITED", reason, ...(message === undefined ? {} : { message }) })
  // The spec's body, exactly: nothing beyond its four fields.
  assert.deepStrictEqual(Object.keys(answer.body ?? {}).sort(), ["code", "message", "ok", "reason"])
  const retryAfter = Number(answer.headers["retry-after"])
  assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${String(answer.headers["retry-after"])}`)
}
