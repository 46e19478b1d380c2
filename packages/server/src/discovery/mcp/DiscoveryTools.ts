import { Effect, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { CatalogEntry, CatalogList } from "@gateway/domain/CatalogEntry"
import { Invalid, NotFound, Unavailable } from "@gateway/domain/Errors"
import { Catalog } from "../../catalog/Catalog.ts"
import { paymentGuide, PaymentGuideSchema } from "./PaymentGuide.ts"
import { toolArguments } from "@gateway/domain/mcp/ToolArguments"

const Bounded = Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))

/**
 * The arguments of the tools `/mcp` shares with the agent's stdio server
 * (packages/agent-mcp): the same names, meanings and JSON Schema on both
 * (docs/decisions.md, "One MCP vocabulary"; packages/agent-mcp/test/Vocabulary.test.ts compares them).
 */
const searchArguments = toolArguments("search_services", {
  query: Schema.optionalKey(Bounded).annotate({ description: "Words to find in services' names and descriptions; omit to list every live service" }),
  limit: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 200 })))).annotate({
    description: "Services per page, 1 to 200 (default 50)"
  }),
  cursor: Schema.optionalKey(Bounded).annotate({ description: "The nextCursor of the previous page, for the page after it" })
})

const termsArguments = toolArguments("get_service_terms", {
  serviceId: Bounded.annotate({ description: "The service's id, as search_services lists it" })
})

const howToPayArguments = toolArguments("how_to_pay", {})

// Dynamic tools, so the raw arguments reach the handler, which refuses unknown ones as a tool error (@gateway/domain/mcp/ToolArguments).
const SearchServices = Tool.dynamic("search_services", {
  description:
    "Search the gateway's live paid services by words in their name or description. Returns one page of catalog entries (the authoritative terms of each) and a cursor for the next page.",
  parameters: searchArguments.jsonSchema,
  success: CatalogList,
  failure: Schema.Union([Invalid, Unavailable])
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

const GetServiceTerms = Tool.dynamic("get_service_terms", {
  description:
    "The terms of one live service by its id: method, path, resourceUrl, the exact price in atomic units of asset, the recipient payTo, network and rail. Compare them with your owner's policy before paying.",
  parameters: termsArguments.jsonSchema,
  success: CatalogEntry,
  failure: Schema.Union([Invalid, NotFound, Unavailable])
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

const HowToPay = Tool.dynamic("how_to_pay", {
  description:
    "How a paid call works here: the 402 challenge, paying through your delegated grant with the challenge nonce as memo, and presenting the credential with its proof of possession.",
  parameters: howToPayArguments.jsonSchema,
  success: PaymentGuideSchema,
  failure: Invalid
}).annotate(Tool.Readonly, true).annotate(Tool.Idempotent, true).annotate(Tool.OpenWorld, false)

/** What the gateway's MCP server offers: discovery only; paying is done by the agent with its own key. */
export const DiscoveryTools = Toolkit.make(SearchServices, GetServiceTerms, HowToPay)

/** The catalog's refusal names its reason only in `reason`; the host shows the message, so it carries both. */
const withReason = (e: Invalid | Unavailable) => e instanceof Invalid ? new Invalid({ message: `${e.message} (${e.reason})`, reason: e.reason }) : e

/** The handlers: the catalog as the HTTP API serves it, and the protocol summary; none needs a session. */
export const DiscoveryToolHandlers = DiscoveryTools.toLayer(
  Effect.gen(function*() {
    const catalog = yield* Catalog
    const guide = yield* paymentGuide
    return DiscoveryTools.of({
      search_services: (raw) =>
        searchArguments.parse(raw).pipe(
          Effect.flatMap(({ query, ...page }) =>
            catalog.list({ ...page, ...(query === undefined ? {} : { q: query }) }).pipe(Effect.mapError(withReason))
          )
        ),
      get_service_terms: (raw) => termsArguments.parse(raw).pipe(Effect.flatMap(({ serviceId }) => catalog.get(serviceId))),
      how_to_pay: (raw) => howToPayArguments.parse(raw).pipe(Effect.as(guide))
    })
  })
)
