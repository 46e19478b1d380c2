import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"

const markdown = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/markdown; charset=utf-8" }))

/** Documents for agents, generated from live data; no session needed. */
export class DiscoveryApi extends HttpApiGroup.make("discovery", { topLevel: true })
  .add(
    HttpApiEndpoint.get("skill", "/SKILL.md", { success: markdown }),
    HttpApiEndpoint.get("llms", "/llms.txt", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; charset=utf-8" }))
    }),
    /** The MCP server card (SEP-2127) of the server at `/mcp`; `/.well-known/mcp.json` is the same document. */
    HttpApiEndpoint.get("serverCard", "/.well-known/mcp/server-card", { success: Schema.Unknown }),
    HttpApiEndpoint.get("mcp", "/.well-known/mcp.json", { success: Schema.Unknown })
  )
{}
