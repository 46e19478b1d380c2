import { Effect } from "effect"
import type { SqlError } from "effect/sql"
import { Unavailable } from "@gateway/domain/Errors"

/**
 * A store that cannot answer is UNAVAILABLE to the caller; the SQL error is
 * logged (statements carry parameters, never secrets) but never returned.
 */
export const storeUnavailable = <A, R>(self: Effect.Effect<A, SqlError.SqlError, R>): Effect.Effect<A, Unavailable, R> =>
  self.pipe(
    Effect.tapError((error) => Effect.logWarning("store unavailable", error.message)),
    Effect.mapError(() => new Unavailable({ message: "The store is unavailable", reason: "store_unreachable" }))
  )
