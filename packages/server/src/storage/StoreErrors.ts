import { Effect } from "effect"
import { SqlError } from "effect/sql"
import { Unavailable } from "@gateway/domain/Errors"

const unavailable = (error: SqlError.SqlError) =>
  Effect.andThen(
    Effect.logWarning("store unavailable", error.message),
    Effect.fail(new Unavailable({ message: "The store is unavailable", reason: "store_unreachable" }))
  )

/**
 * A store that cannot answer is UNAVAILABLE to the caller; the SQL error is
 * logged (statements carry parameters, never secrets) but never returned.
 * That includes a transaction whose ROLLBACK fails on a lost connection, which
 * effect/sql reports as a defect: it is the same outage, not a bug.
 */
export const storeUnavailable = <A, R>(self: Effect.Effect<A, SqlError.SqlError, R>): Effect.Effect<A, Unavailable, R> =>
  self.pipe(
    Effect.catch(unavailable),
    Effect.catchDefect((defect) => SqlError.isSqlError(defect) ? unavailable(defect) : Effect.die(defect))
  )
