import { type Cause, Effect, Schema, SchemaTransformation } from "effect"
import { SqlError } from "effect/sql"
import { Unavailable } from "@gateway/domain/Errors"

/**
 * A `json`/`jsonb` column (or a `json_build_object`): the pg driver hands it
 * parsed, a column cast to text (or another driver) hands the JSON text.
 */
export const JsonColumn = <S extends Schema.Top>(schema: S) => Schema.Union([schema, Schema.fromJsonString(schema)])

/** A `timestamptz` column: a `Date` from pg's parser, the ISO text when a driver leaves it unparsed. */
export const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])

/** A `timestamptz` column as ISO 8601 text, whatever the driver handed over. */
export const TimestampIso = Timestamp.pipe(
  Schema.decodeTo(Schema.String, SchemaTransformation.transform({ decode: (d) => d.toISOString(), encode: (s) => new Date(s) }))
)

/** A 64-bit integer as a driver hands it: a JS bigint, decimal text, or a number for the smaller types. */
const Int64 = Schema.Union([Schema.BigInt, Schema.String, Schema.Number])

/** A `bigint` or `count(*)` that fits a number. */
export const Count = Int64.pipe(
  Schema.decodeTo(Schema.Finite, SchemaTransformation.transform({ decode: (v) => Number(v), encode: (n) => n }))
)

/** A `bigint` kept whole (a sequence). */
export const BigIntColumn = Int64.pipe(
  Schema.decodeTo(Schema.BigInt, SchemaTransformation.transform({ decode: (v) => BigInt(v), encode: (n) => n }))
)

/** 23505: the statement collided with a unique or primary key (a taken idempotency key, a recorded digest). */
const isUniqueViolation = (error: SqlError.SqlError) => error.reason._tag === "UniqueViolation"

/**
 * Answers `onConflict` when the statement broke a unique constraint; the
 * transaction it ran in has rolled back. Any other SQL error stays an error.
 */
export const onUniqueViolation = <B>(onConflict: () => B) =>
<A, E, R>(self: Effect.Effect<A, E | SqlError.SqlError, R>): Effect.Effect<A | B, E | SqlError.SqlError, R> =>
  Effect.catchIf(
    self,
    (error): error is SqlError.SqlError => SqlError.isSqlError(error) && isUniqueViolation(error),
    () => Effect.succeed(onConflict())
  )

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

/**
 * `storeUnavailable` for a query decoded by `SqlSchema`: a row that does not
 * decode, or a row the statement must return and did not, is a bug (a defect),
 * not an outage.
 */
export const storeDecoded = <A, R>(
  self: Effect.Effect<A, SqlError.SqlError | Schema.SchemaError | Cause.NoSuchElementError, R>
): Effect.Effect<A, Unavailable, R> =>
  self.pipe(Effect.catchTags({ SchemaError: Effect.die, NoSuchElementError: Effect.die }), storeUnavailable)
