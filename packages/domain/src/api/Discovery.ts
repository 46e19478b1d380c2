import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { X402Discovery } from "../payment/X402Discovery.ts"

const markdown = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/markdown; charset=utf-8" }))

const documented = (summary: string, description: string) => OpenApi.annotations({ summary, description })

/** Documents for agents, generated from live data; no session needed. */
export class DiscoveryApi extends HttpApiGroup.make("discovery", { topLevel: true })
  .add(
    HttpApiEndpoint.get("skill", "/SKILL.md", { success: markdown }).annotateMerge(documented(
      "The agent skill",
      "The safe discovery-and-payment procedure for agents, with the paid-call protocol and the public routes."
    )),
    HttpApiEndpoint.get("llms", "/llms.txt", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; charset=utf-8" }))
    }).annotateMerge(documented("llms.txt", "An index of the gateway for language models: discovery documents, live services and the API's routes.")),
    /** The MCP server card (SEP-2127) of the server at `/mcp`; `/.well-known/mcp.json` is the same document. */
    HttpApiEndpoint.get("serverCard", "/.well-known/mcp/server-card", { success: Schema.Unknown }).annotateMerge(documented(
      "MCP server card",
      "How to connect to the MCP server at /mcp (SEP-2127); readable from any origin."
    )),
    HttpApiEndpoint.get("mcp", "/.well-known/mcp.json", { success: Schema.Unknown }).annotateMerge(documented(
      "MCP server card (alias)",
      "The same document as /.well-known/mcp/server-card."
    )),
    HttpApiEndpoint.get("x402", "/.well-known/x402", { success: X402Discovery }).annotateMerge(documented(
      "x402 discovery document",
      "The paid resources (every live service's resourceUrl) and how to pay them, for x402 crawlers."
    ))
  )
{}
