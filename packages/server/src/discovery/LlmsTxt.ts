import { Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { Catalog, type CatalogPage } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { escapeMarkdown } from "./EscapeMarkdown.ts"
import { SUMMARY, TITLE } from "./GatewaySummary.ts"
import { publicRoutes } from "./PublicRoutes.ts"

/** `/llms.txt` over the first page of live services, `pageSize` long, with a link to the page after it when there is one. */
export const llmsTxt = (origin: string, { count, services, nextCursor }: CatalogPage, pageSize: number) => {
  const link = (path: string) => `${origin}${path}`
  const more = nextCursor === null
    ? []
    : [
      "",
      `${count} live services; the first ${services.length} are listed here. The rest, page by page: ${
        link(`/v1/services?limit=${pageSize}&cursor=${nextCursor}`)
      }`
    ]
  return [
    `# ${TITLE}`,
    "",
    `> ${SUMMARY}`,
    "",
    "## Discovery",
    "",
    `- [Live services](${link("/v1/services")}): JSON list, \`?q=\` to search`,
    `- [Skill](${link("/SKILL.md")}): the safe discovery-and-payment procedure: pay sign-first (x402 \`exact\`, charged only after the seller answered) by default, upfront (\`sui-delegate\`) as the alternative, and sessions (\`sui-session\`: one deposit, a voucher per call) for many calls to one seller`,
    `- [MCP server](${link("/mcp")}): Streamable HTTP MCP endpoint with the tools search_services (\`query\`, \`limit\`, \`cursor\`), get_service_terms (\`serviceId\`) and how_to_pay; no sign-in needed`,
    `- [MCP server card](${link("/.well-known/mcp/server-card")}): how to connect to it (also at /.well-known/mcp.json)`,
    `- [OpenAPI](${link("/openapi.json")}): every route of the API`,
    "",
    "## Services",
    "",
    ...(services.length === 0
      ? ["No live services yet."]
      : services.map((s) =>
        `- [${s.id}](${link(`/v1/services/${s.id}.md`)}): ${escapeMarkdown(s.name)} — ${escapeMarkdown(s.description)} (${s.price} of ${s.asset})`
      )),
    ...more,
    "",
    "## API",
    "",
    ...publicRoutes().map((r) => `- \`${r.method} ${r.path}\`${r.authenticated ? " (owner session)" : ""}`),
    ""
  ].join("\n")
}

/**
 * The first `llmsTxtMaxServices` live services and a link to the page
 * after them, so the document's size (and the work of rendering it) stays
 * bounded however large the catalog grows. It is served from
 * ServiceReadCache, which every activation clears.
 */
export const llmsDocument = Effect.fn("AgentDocuments.llms")(function*() {
  const { llmsTxtMaxServices } = yield* AppConfig
  const page = yield* (yield* Catalog).list({ limit: llmsTxtMaxServices })
  return llmsTxt((yield* PublicUrl).origin, page, llmsTxtMaxServices)
})
