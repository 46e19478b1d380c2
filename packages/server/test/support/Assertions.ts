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
