import { Schema } from "effect"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ServiceId } from "./Ids.ts"
import { ServiceSettlement } from "./ServiceSettlement.ts"
import { SuiAddress } from "./SuiAddress.ts"

export const HttpMethodName = Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"])

/** draft → live, once; a live service's edits go live on activation (docs/decisions.md). */
export const ServiceStatus = Schema.Literals(["draft", "live"])
export type ServiceStatus = typeof ServiceStatus.Type

export const Dialect = Schema.Literals(["mpp", "x402"])

/** The public catalog entry: the authoritative machine terms of a paid call. */
export const CatalogEntry = Schema.Struct({
  id: ServiceId,
  name: Schema.String,
  description: Schema.String,
  method: HttpMethodName,
  path: Schema.String,
  resourceUrl: Schema.String,
  price: PositiveAtomicAmount,
  asset: CoinType,
  decimals: Schema.Number,
  payTo: SuiAddress,
  network: Schema.String,
  dialects: Schema.Array(Dialect),
  rail: Schema.Literal("delegate"),
  mimeType: Schema.String,
  settlement: ServiceSettlement,
  status: ServiceStatus,
  managed: Schema.Boolean,
  brand: Schema.NullOr(Schema.String),
  activeRevision: Schema.Number
})
export type CatalogEntry = typeof CatalogEntry.Type

export const CatalogList = Schema.Struct({
  count: Schema.Number,
  services: Schema.Array(CatalogEntry),
  nextCursor: Schema.NullOr(Schema.String)
})

export const CatalogQuery = Schema.Struct({
  q: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))),
  limit: Schema.optionalKey(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
  ),
  cursor: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))))
})

/** One line of plain text: control characters (newlines included) would let a seller restructure the agent documents. */
const Text = (max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(max), Schema.isPattern(/^\P{Cc}*$/u, { expected: "one line without control characters" }))
  )

/** A bearer secret: visible ASCII only, so it cannot break out of the header it is sent in. */
export const UpstreamCredential = Schema.RedactedFromValue(
  Schema.String.pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(4096), Schema.isPattern(/^[\x21-\x7e]+$/, { expected: "visible ASCII without spaces" }))
  )
)

/** What a seller sends to register (or edit) a service; the gateway assigns id and resourceUrl. */
export const RegisterService = Schema.Struct({
  name: Text(100),
  description: Text(2000),
  method: HttpMethodName,
  path: Schema.String.pipe(
    Schema.check(Schema.isMaxLength(500), Schema.isPattern(/^\/[A-Za-z0-9\-._~/]*$/, { expected: "an absolute path" }))
  ),
  price: PositiveAtomicAmount,
  asset: CoinType,
  decimals: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 18 }))),
  payTo: SuiAddress,
  dialects: Schema.optionalKey(Schema.Array(Dialect).pipe(Schema.check(Schema.isMinLength(1)))),
  rail: Schema.optionalKey(Schema.Literal("delegate")),
  mimeType: Schema.optionalKey(Text(200)),
  brand: Schema.optionalKey(Schema.NullOr(Text(100))),
  /** Absent: `after_answer`. */
  settlement: Schema.optionalKey(ServiceSettlement),
  upstreamUrl: Schema.String.pipe(
    Schema.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\/[^\s]+$/, { expected: "an http(s) URL" }))
  ),
  /**
   * The secret the gateway sends the upstream as `Authorization: Bearer …`,
   * write-only: kept encrypted for this service and seller, never returned.
   * Absent on an edit keeps the current one; null removes it.
   */
  upstreamCredential: Schema.optionalKey(Schema.NullOr(UpstreamCredential))
})
export type RegisterService = typeof RegisterService.Type

/** The owner's view adds management fields; of the credential it says only whether one is set. */
export const ManagedService = Schema.Struct({
  service: CatalogEntry,
  management: Schema.Struct({
    ownerAddress: SuiAddress,
    upstreamUrl: Schema.String,
    hasUpstreamCredential: Schema.Boolean,
    draftRevision: Schema.NullOr(Schema.Number),
    createdAt: Schema.String,
    updatedAt: Schema.String
  })
})
export type ManagedService = typeof ManagedService.Type
