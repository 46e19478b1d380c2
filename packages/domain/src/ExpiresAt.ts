import { Schema } from "effect"

/** ISO-8601 with a time zone, as a client would send it. */
const IsoInstant = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/u, {
      expected: "an ISO-8601 instant with a time zone"
    }),
    Schema.makeFilter((s: string) => !Number.isNaN(Date.parse(s)) || "is not a valid date")
  )
)

const EpochMillis = Schema.Number.pipe(
  Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 8_640_000_000_000_000 }))
)

/** Wall-clock expiry as sent: ISO-8601, a millisecond epoch, or null / omitted for none. */
export const ExpiresAtInput = Schema.NullOr(Schema.Union([IsoInstant, EpochMillis]))
export type ExpiresAtInput = typeof ExpiresAtInput.Type

/** The on-chain `expiry_ms`: 0 means no expiry. */
export const expiryMs = (input: ExpiresAtInput | undefined): bigint =>
  input === null || input === undefined ? 0n : BigInt(typeof input === "number" ? input : Date.parse(input))
