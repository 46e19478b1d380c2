import { Schema } from "effect"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { documentedNumberFromString } from "./Doc.ts"
import { ServiceId } from "./Ids.ts"
import { ServiceSettlement } from "./ServiceSettlement.ts"
import { SuiAddress } from "./SuiAddress.ts"

/** A field's description and one example, as `/openapi.json` shows them: every field a newcomer reads has both. */
const doc = <S extends Schema.Top>(schema: S, description: string, example: S["Type"]) =>
  // The key annotation too: a branded or filtered schema's own description is not carried into the JSON Schema.
  schema.annotate({ description, examples: [example] }).annotateKey({ description })

export const HttpMethodName = Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"])

/** draft → live, once; a live service's edits go live on activation (docs/decisions.md). */
export const ServiceStatus = Schema.Literals(["draft", "live"])
export type ServiceStatus = typeof ServiceStatus.Type

export const Dialect = Schema.Literals(["mpp", "x402"])

const SERVICE_ID = ServiceId.make("svc_0123456789abcdefghijklmnop")
const PAY_TO = SuiAddress.make("0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d")
const SUI = CoinType.make("0x2::sui::SUI")

/** Why each term matters to a payer, said once and used by the public entry and the registration body alike. */
const TERMS = {
  name: "The service's name as agents see it in the catalog; one line.",
  description: "What one paid call returns, for agents choosing a service; one line.",
  method: "The HTTP method agents call the service with (and the gateway forwards with).",
  path:
    "The path on your upstream that a paid call is forwarded to, appended to upstreamUrl's origin (for example /v1/answer); agents never see your upstream, they call resourceUrl.",
  price:
    "The price of one call in atomic units of asset (the coin's smallest unit, a decimal string): \"1000\" is 0.000001 SUI, since SUI has 9 decimals; never a decimal fraction such as \"0.001\".",
  asset: "The coin type paid with, `<package>::<module>::<type>`; one of the gateway's supported assets.",
  decimals:
    "The coin's decimals as its metadata on chain says (SUI: 9), used only to show price in whole coins: price itself is already atomic. Registration refuses a value that differs from the chain's and fills it in when left out.",
  payTo: "The Sui address that receives the payments: the seller's.",
  dialects: "The 402 payment dialects offered: mpp (Authorization: Payment) and x402 (PAYMENT-SIGNATURE).",
  rail: "How the payment is made: delegate, a delegated signer's grant paying on chain.",
  mimeType: "The content type of the service's answer.",
  brand: "A brand name shown beside the service, or null."
} as const

/** The public catalog entry: the authoritative machine terms of a paid call. */
export const CatalogEntry = Schema.Struct({
  id: doc(ServiceId, "The service's id, assigned by the gateway.", SERVICE_ID),
  name: doc(Schema.String, TERMS.name, "Weather Oracle"),
  description: doc(Schema.String, TERMS.description, "Today's forecast for one city"),
  method: doc(HttpMethodName, TERMS.method, "GET"),
  path: doc(Schema.String, TERMS.path, "/v1/answer"),
  resourceUrl: doc(
    Schema.String,
    "The URL agents call: the gateway answers it with a 402 payment challenge, then forwards the paid call to the seller's upstream.",
    "https://gateway.example/v1/pay/svc_0123456789abcdefghijklmnop"
  ),
  price: doc(PositiveAtomicAmount, TERMS.price, PositiveAtomicAmount.make("1000")),
  asset: doc(CoinType, TERMS.asset, SUI),
  decimals: doc(Schema.Int, TERMS.decimals, 9),
  payTo: doc(SuiAddress, TERMS.payTo, PAY_TO),
  network: doc(Schema.String, "The chain the payment is made on, `sui:<network>`.", "sui:testnet"),
  dialects: doc(Schema.Array(Dialect), TERMS.dialects, ["mpp", "x402"]),
  rail: doc(Schema.Literal("delegate"), TERMS.rail, "delegate"),
  mimeType: doc(Schema.String, TERMS.mimeType, "application/json"),
  settlement: ServiceSettlement.annotate({ examples: ["after_answer"] }),
  status: doc(ServiceStatus, "draft until the seller activates it; only live services are served to agents.", "live"),
  managed: doc(Schema.Boolean, "Whether the gateway operator manages this service on the seller's behalf.", false),
  brand: doc(Schema.NullOr(Schema.String), TERMS.brand, null),
  activeRevision: doc(Schema.Int, "The revision of the terms agents are paying under now; 0 before the first activation.", 1)
})
export type CatalogEntry = typeof CatalogEntry.Type

export const CatalogList = Schema.Struct({
  count: doc(Schema.Int, "How many services this page holds.", 1),
  services: Schema.Array(CatalogEntry).annotate({ description: "The live services on this page, best match first.", examples: [] }),
  nextCursor: doc(Schema.NullOr(Schema.String), "Pass as cursor for the next page; null on the last page.", null)
})

export const CatalogQuery = Schema.Struct({
  q: Schema.optionalKey(doc(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))), "Words to search names and descriptions for.", "weather")),
  limit: Schema.optionalKey(
    documentedNumberFromString(
      Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      "At most this many services (1 to 200); absent: 50.",
      20
    )
  ),
  cursor: Schema.optionalKey(doc(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))), "A previous page's nextCursor.", "NDI"))
})

/** One line of plain text: control characters (newlines included) would let a seller restructure the agent documents. */
const Text = (max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(max), Schema.isPattern(/^\P{Cc}*$/u, { expected: "one line without control characters" }))
  )

/** A bearer secret: visible ASCII only, so it cannot break out of the header it is sent in. */
export const UpstreamCredential = Schema.RedactedFromValue(
  Schema.String.pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(4096), Schema.isPattern(/^[\x21-\x7e]+$/u, { expected: "visible ASCII without spaces" }))
  )
)

/** Coin decimals as a seller may state them: checked against the coin's metadata on chain at registration. */
const Decimals = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 18 })))

const termsFields = {
  name: doc(Text(100), TERMS.name, "Weather Oracle"),
  description: doc(Text(2000), TERMS.description, "Today's forecast for one city"),
  method: doc(HttpMethodName, TERMS.method, "GET"),
  path: doc(
    Schema.String.pipe(
      Schema.check(Schema.isMaxLength(500), Schema.isPattern(/^\/[A-Za-z0-9\-._~/]*$/u, { expected: "an absolute path" }))
    ),
    TERMS.path,
    "/v1/answer"
  ),
  price: doc(PositiveAtomicAmount, TERMS.price, PositiveAtomicAmount.make("1000")),
  asset: doc(CoinType, TERMS.asset, SUI),
  payTo: doc(SuiAddress, TERMS.payTo, PAY_TO),
  dialects: Schema.optionalKey(doc(Schema.Array(Dialect).pipe(Schema.check(Schema.isMinLength(1))), `${TERMS.dialects} Absent: both.`, ["mpp", "x402"])),
  rail: Schema.optionalKey(doc(Schema.Literal("delegate"), `${TERMS.rail} Absent: delegate.`, "delegate")),
  mimeType: Schema.optionalKey(doc(Text(200), `${TERMS.mimeType} Absent: application/json.`, "application/json")),
  brand: Schema.optionalKey(doc(Schema.NullOr(Text(100)), TERMS.brand, null)),
  /** Absent: `after_answer`. */
  settlement: Schema.optionalKey(ServiceSettlement.annotate({ examples: ["after_answer"] }))
}

/** What a seller sends to register (or edit) a service; the gateway assigns id and resourceUrl. */
export const RegisterService = Schema.Struct({
  ...termsFields,
  decimals: Schema.optionalKey(doc(Decimals, `${TERMS.decimals} Absent: taken from the chain.`, 9)),
  upstreamUrl: doc(
    Schema.String.pipe(
      Schema.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\/[^\s]+$/u, { expected: "an http(s) URL" }))
    ),
    "Where your own server is: the gateway forwards each paid call to this URL's origin plus path, never shown to agents. A loopback or private address is refused unless the operator allows its exact host:port in UPSTREAM_ALLOW_HOSTS.",
    "https://api.seller.example"
  ),
  /**
   * The secret the gateway sends the upstream as `Authorization: Bearer …`,
   * write-only: kept encrypted for this service and seller, never returned.
   * Absent on an edit keeps the current one; null removes it.
   */
  upstreamCredential: Schema.optionalKey(
    Schema.NullOr(UpstreamCredential).annotate({
      description:
        "A secret the gateway sends your upstream as `Authorization: Bearer …` so it can tell calls came through the gateway; write-only, stored encrypted, never returned. Absent on an edit keeps the current one; null removes it.",
      examples: [null]
    })
  )
})
export type RegisterService = typeof RegisterService.Type

/** A revision's terms as the catalog stores them (upstream aside): `decimals` always set, by the seller or from the chain. */
export const ServiceTerms = Schema.Struct({ ...termsFields, decimals: doc(Decimals, TERMS.decimals, 9) })

/** A registration body once its checks have filled in `decimals`. */
export type RegisteredTerms = Omit<RegisterService, "decimals"> & { readonly decimals: number }

/** The owner's view adds management fields; of the credential it says only whether one is set. */
export const ManagedService = Schema.Struct({
  service: CatalogEntry.annotate({ description: "The service's public catalog entry." }),
  management: Schema.Struct({
    ownerAddress: doc(SuiAddress, "The seller who registered the service and alone may manage it.", PAY_TO),
    upstreamUrl: doc(Schema.String, "Where paid calls are forwarded (origin plus path); never shown to agents.", "https://api.seller.example"),
    hasUpstreamCredential: doc(Schema.Boolean, "Whether an upstream credential is set; the credential itself is never returned.", true),
    draftRevision: doc(Schema.NullOr(Schema.Int), "The revision waiting for activation, or null when there is none.", null),
    createdAt: doc(Schema.String, "When the service was registered (ISO 8601).", "2026-01-01T00:00:00.000Z"),
    updatedAt: doc(Schema.String, "When its terms last changed (ISO 8601).", "2026-01-01T00:00:00.000Z")
  }).annotate({ description: "What only the owner sees: the upstream and the revision state." })
})
export type ManagedService = typeof ManagedService.Type
