import { isIP } from "node:net"
import { McpProtocol, Tool } from "effect/ai"
import { DiscoveryTools } from "./DiscoveryTools.ts"

export const MCP_PATH = "/mcp"
export const SERVER_NAME = "sui-delegated-gateway"
export const SERVER_VERSION = "1.0.0"

/** The revisions `/mcp` speaks: the sessionful Streamable HTTP ones that MCP clients use today. */
export const PROTOCOLS = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26] as const

const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

/**
 * A card's name is reverse-DNS, one slash (SEP-2127): the namespace is the
 * host this gateway is published at, so each deployment names itself.
 */
const namespaceOf = (hostname: string) => (isIP(hostname) === 0 ? hostname.split(".").reverse().join(".") : hostname)

export interface ServerCardLinks {
  readonly origin: string
  readonly title: string
  readonly description: string
  /** Where the agent documents are, carried in `_meta` for crawlers that read only the card. */
  readonly documents: Readonly<Record<string, string>>
}

/** The MCP server card (SEP-2127) served at `/.well-known/mcp/server-card` and `/.well-known/mcp.json`. */
export const serverCard = ({ origin, title, description, documents }: ServerCardLinks) => {
  const namespace = namespaceOf(new URL(origin).hostname)
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespace}/${SERVER_NAME}`,
    version: SERVER_VERSION,
    title,
    description,
    websiteUrl: origin,
    remotes: [{
      type: "streamable-http",
      url: `${origin}${MCP_PATH}`,
      supportedProtocolVersions: PROTOCOLS.map((p) => p.protocolVersion),
      authentication: { required: false, schemes: [] }
    }],
    capabilities: { tools: { listChanged: false } },
    tools: Object.values(DiscoveryTools.tools).map((tool) => ({
      name: tool.name,
      description: Tool.getDescription(tool),
      inputSchema: Tool.getJsonSchema(tool)
    })),
    _meta: { [`${namespace}/documents`]: documents }
  }
}
