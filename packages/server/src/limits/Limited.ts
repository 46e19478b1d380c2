import { Data } from "effect"

/**
 * A limit or budget was reached. Services fail with this; the HTTP edge answers it as the spec's body with
 * code RATE_LIMITED (429) and sends `retryAfterSeconds` as `Retry-After` (`httpShared/RetryAfter.ts`).
 */
export class Limited extends Data.TaggedError("Limited")<{
  readonly message: string
  readonly reason: string
  readonly retryAfterSeconds: number
}> {}
