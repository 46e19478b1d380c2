/** The MCP server card (SEP-2127): its required fields and a streamable-http remote at /mcp, for Ajv. */
export const cardSchema = {
  type: "object",
  required: ["$schema", "name", "version", "capabilities", "remotes"],
  properties: {
    $schema: { type: "string", pattern: "^https://" },
    name: { type: "string", pattern: "^[^/]+/[^/]+$" },
    version: { type: "string", minLength: 1 },
    capabilities: { type: "object", required: ["tools"] },
    remotes: {
      type: "array",
      minItems: 1,
      items: { type: "object", required: ["type", "url"], properties: { type: { const: "streamable-http" }, url: { type: "string", pattern: "/mcp$" } } }
    }
  }
}
