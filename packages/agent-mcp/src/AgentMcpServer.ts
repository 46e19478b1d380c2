import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Schema } from "effect"
import type { AgentEnvironment } from "./AgentEnvironment.ts"
import { CloseSessionsInput, GrantBudgetInput, makeAgentTools, PayAndCallInput, SearchInput, TermsInput, type ToolFailed } from "./AgentTools.ts"

export const SERVER_NAME = "gateway-agent-mcp"
export const SERVER_VERSION = "0.1.0"

interface McpTool {
  readonly definition: Tool
  readonly call: (args: unknown) => Promise<CallToolResult>
}

const textResult = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError } : {})
})

/** A tool whose arguments are decoded by `input` (also its advertised JSON Schema) before `run` sees them. */
const tool = <S extends Schema.Codec<unknown, unknown>>(
  name: string,
  description: string,
  input: S,
  run: (args: S["Type"]) => Effect.Effect<unknown, ToolFailed>
): McpTool => {
  const { schema } = Schema.toJsonSchemaDocument(input)
  const decode = Schema.decodeUnknownEffect(input)
  return {
    definition: { name, description, inputSchema: { ...schema, type: "object" } },
    call: (args) =>
      decode(args ?? {}).pipe(
        Effect.mapError((e) => `invalid arguments: ${e.message}`),
        Effect.flatMap((decoded) => run(decoded).pipe(Effect.mapError((e) => e.message))),
        Effect.match({ onFailure: (message) => textResult(message, true), onSuccess: (value) => textResult(value) }),
        Effect.runPromise
      )
  }
}

/** The MCP server over the agent's tools; the key stays in `environment` and no tool returns it. */
export const makeAgentMcpServer = (environment: AgentEnvironment) => {
  const tools = makeAgentTools(environment)
  const all = [
    tool("search_services", "Find paid services on the gateway by words in their names and descriptions.", SearchInput, tools.searchServices),
    tool(
      "get_service_terms",
      "A service's terms: price, asset, method, resourceUrl, and the payment challenge (402) its resource answers an unpaid call with.",
      TermsInput,
      tools.serviceTerms
    ),
    tool(
      "pay_and_call",
      "Call a paid service, paying its price from the agent's grant when the gateway asks for payment, within the owner's caps and policies. The payment is signed first and charged only when the seller answers: a failed call (503) costs nothing, and calling again with the same request presents the same payment. With payment \"session\" (for many calls to one seller) the first call opens a session (one deposit on chain) and each call is paid by a voucher signed off chain; a failed call costs nothing either. Answers the seller's status, content type and body, the payment's transaction digest (or the session and voucher amount), and whether it was charged.",
      PayAndCallInput,
      tools.payAndCall
    ),
    tool("grant_budget", "The agent's grants as the chain holds them: cap, spent and remaining budget, in atomic units.", GrantBudgetInput, () => tools.grantBudget()),
    tool(
      "close_sessions",
      "Close every payment session pay_and_call opened: the seller is paid what the answered calls used, and the rest of each deposit goes back to the grant. Call it when done with a seller.",
      CloseSessionsInput,
      () => tools.closeSessions()
    )
  ]
  const byName = new Map(all.map((t) => [t.definition.name, t]))
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: all.map((t) => t.definition) }))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const found = byName.get(request.params.name)
    return found === undefined ? textResult(`no tool named ${request.params.name}`, true) : found.call(request.params.arguments)
  })
  return server
}

/** Serves the agent's tools on stdin/stdout until the client closes them. */
export const serveStdio = (environment: AgentEnvironment) => makeAgentMcpServer(environment).connect(new StdioServerTransport())
