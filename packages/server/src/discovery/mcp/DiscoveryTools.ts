import { Effect, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { CatalogEntry, CatalogList } from "@gateway/domain/CatalogEntry"
import { Invalid, NotFound, Unavailable } from "@gateway/domain/Errors"
import { Catalog } from "../../catalog/Catalog.ts"
import { paymentGuide, PaymentGuideSchema } from "./PaymentGuide.ts"

const SearchServices = Tool.make("search_services", {
  description:
    "Search the gateway's live paid services by words in their name or description. Returns one page of catalog entries (the authoritative terms of each) and a cursor for the next page.",
  parameters: Schema.Struct({
    q: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))).annotate({ description: "Words to search for; omit to list every live service" }),
    limit: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 200 })))).annotate({
      description: "Services per page, 1 to 200 (default 50)"
    }),
    cursor: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))).annotate({
      description: "The nextCursor of the previous page"
    })
  }),
  success: CatalogList,
  failure: Schema.Union([Invalid, Unavailable])
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

const GetServiceTerms = Tool.make("get_service_terms", {
  description:
    "The terms of one live service by its id: method, path, resourceUrl, the exact price in atomic units of asset, the recipient payTo, network and rail. Compare them with your owner's policy before paying.",
  parameters: Schema.Struct({ id: Schema.String.pipe(Schema.check(Schema.isMaxLength(200))).annotate({ description: "The service id, e.g. from search_services" }) }),
  success: CatalogEntry,
  failure: Schema.Union([NotFound, Unavailable])
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

const HowToPay = Tool.make("how_to_pay", {
  description:
    "How a paid call works here: the 402 challenge, paying through your delegated grant with the challenge nonce as memo, and presenting the credential with its proof of possession.",
  success: PaymentGuideSchema
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

/** What the gateway's MCP server offers: discovery only; paying is done by the agent with its own key. */
export const DiscoveryTools = Toolkit.make(SearchServices, GetServiceTerms, HowToPay)

/** The handlers: the catalog as the HTTP API serves it, and the protocol summary; none needs a session. */
export const DiscoveryToolHandlers = DiscoveryTools.toLayer(
  Effect.gen(function*() {
    const catalog = yield* Catalog
    const guide = yield* paymentGuide
    return DiscoveryTools.of({
      search_services: (query) => catalog.list(query),
      get_service_terms: ({ id }) => catalog.get(id),
      how_to_pay: () => Effect.succeed(guide)
    })
  })
)
