import { Effect, Schema } from "effect"

/**
 * One class per spec error code. Each encodes to exactly the spec's body
 * `{ ok: false, code, message, reason }`: `_tag` is omitted on the wire and the
 * literal `code` lets the derived client tell apart errors that share a status.
 */
/** The HTTP status of each code, as the spec's error table gives it (INTERNAL is the generic 500). */
export const httpStatus = {
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  NOT_FINAL: 409,
  INVALID: 400,
  UNSUPPORTED_ASSET: 400,
  UNAVAILABLE: 503,
  TX_FAILED: 502,
  FOREIGN_DIGEST: 502,
  UNVERIFIED: 502,
  /** Not in the spec's table (it leaves rate limits "not shown"): a limit was reached; `Retry-After` says when to try again. */
  RATE_LIMITED: 429,
  INTERNAL: 500
} as const

const TAG_DESCRIPTION = "Never sent: error bodies omit it, and `code` tells errors apart."

const fields = <Code extends keyof typeof httpStatus>(code: Code) => ({
  // `tagDefaultOmit` spelled out, so the description reaches the encoded side that `/openapi.json` shows.
  _tag: Schema.tag(code).annotate({ description: TAG_DESCRIPTION, examples: [code] }).pipe(
    Schema.withDecodingDefaultKey(Effect.succeed(code), { encodingStrategy: "omit" })
  ).annotateKey({ description: TAG_DESCRIPTION }),
  ok: Schema.Literal(false).pipe(Schema.withConstructorDefault(Effect.succeed(false as const))).annotateKey({
    description: "Always false on an error.",
    examples: [false]
  }),
  code: Schema.Literal(code).pipe(Schema.withConstructorDefault(Effect.succeed(code))).annotateKey({
    description: "The spec's error code: what kind of failure this is.",
    examples: [code]
  }),
  message: Schema.String.annotate({
    description: "What happened and what to do next, for a person; when a payment is involved, what happened to the money.",
    examples: ["The request is invalid: fix body.price (see reason)"]
  }),
  reason: Schema.String.annotate({
    description: "The exact condition, for a program: a snake_case reason, or `<where>: <what>` for an invalid field.",
    examples: ["body.price: Expected a whole number of atomic units"]
  })
})

export class Unauthenticated extends Schema.Error<Unauthenticated>("Unauthenticated")(
  fields("UNAUTHENTICATED"), { httpApiStatus: httpStatus.UNAUTHENTICATED }
) {}

export class NotFound extends Schema.Error<NotFound>("NotFound")(fields("NOT_FOUND"), { httpApiStatus: httpStatus.NOT_FOUND }) {}

export class Conflict extends Schema.Error<Conflict>("Conflict")(fields("CONFLICT"), { httpApiStatus: httpStatus.CONFLICT }) {}

export class NotFinal extends Schema.Error<NotFinal>("NotFinal")(fields("NOT_FINAL"), { httpApiStatus: httpStatus.NOT_FINAL }) {}

export class Invalid extends Schema.Error<Invalid>("Invalid")(fields("INVALID"), { httpApiStatus: httpStatus.INVALID }) {}

export class UnsupportedAsset extends Schema.Error<UnsupportedAsset>("UnsupportedAsset")(
  fields("UNSUPPORTED_ASSET"), { httpApiStatus: httpStatus.UNSUPPORTED_ASSET }
) {}

export class Unavailable extends Schema.Error<Unavailable>("Unavailable")(
  fields("UNAVAILABLE"), { httpApiStatus: httpStatus.UNAVAILABLE }
) {}

export class TxFailed extends Schema.Error<TxFailed>("TxFailed")(fields("TX_FAILED"), { httpApiStatus: httpStatus.TX_FAILED }) {}

export class ForeignDigest extends Schema.Error<ForeignDigest>("ForeignDigest")(
  fields("FOREIGN_DIGEST"), { httpApiStatus: httpStatus.FOREIGN_DIGEST }
) {}

export class Unverified extends Schema.Error<Unverified>("Unverified")(
  fields("UNVERIFIED"), { httpApiStatus: httpStatus.UNVERIFIED }
) {}

/** A rate limit or budget was reached: the body is the spec's four fields, and the response carries `Retry-After`. */
export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(
  fields("RATE_LIMITED"), { httpApiStatus: httpStatus.RATE_LIMITED }
) {}

/** Not a spec code: the body of an unexpected defect, which must leak nothing. */
export class Internal extends Schema.Error<Internal>("Internal")(fields("INTERNAL"), { httpApiStatus: httpStatus.INTERNAL }) {}

/** Why a verifier refused a fetched transaction: exactly one of these codes. */
export type VerificationError = NotFinal | TxFailed | ForeignDigest | Unverified

export type ApiError =
  | Unauthenticated
  | NotFound
  | Conflict
  | NotFinal
  | Invalid
  | UnsupportedAsset
  | Unavailable
  | TxFailed
  | ForeignDigest
  | Unverified
  | RateLimited
  | Internal

const errorClasses = [
  Unauthenticated,
  NotFound,
  Conflict,
  NotFinal,
  Invalid,
  UnsupportedAsset,
  Unavailable,
  TxFailed,
  ForeignDigest,
  Unverified,
  RateLimited,
  Internal
] as const

export const isApiError = (u: unknown): u is ApiError => errorClasses.some((cls) => u instanceof cls)
