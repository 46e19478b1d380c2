import { Layer } from "effect"
import { McpServer } from "effect/ai"
import { McpErrorBodies } from "./McpErrorBodies.ts"
import { DiscoveryToolHandlers, DiscoveryTools } from "./DiscoveryTools.ts"
import { MCP_PATH, PROTOCOLS, SERVER_NAME, SERVER_VERSION } from "./ServerCard.ts"

/**
 * The gateway's MCP server, Streamable HTTP at `/mcp`: the discovery tools,
 * open to any client as the catalog is. Requests carrying an `Origin` are
 * refused (effect's default), so a web page cannot drive it from a visitor's
 * browser; agents and MCP clients send none.
 */
export const McpRoutes = McpServer.layerHttp({
  name: SERVER_NAME,
  version: SERVER_VERSION,
  description: "Discover the gateway's paid services, read their terms, and learn how to pay for a call.",
  path: MCP_PATH,
  protocols: PROTOCOLS,
  allowSessionTermination: true,
  registrations: McpServer.toolkit(DiscoveryTools).pipe(Layer.provide(DiscoveryToolHandlers))
}).pipe(Layer.provide(McpErrorBodies))
