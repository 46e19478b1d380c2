import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js"
import { Effect, type Schema } from "effect"
import type { AgentEnvironment } from "./AgentEnvironment.ts"
import { makeAgentTools, PayAndCallArguments, SearchArguments, TermsArguments, type ToolFailed } from "./AgentTools.ts"
import { type ArgumentFields, toolArguments } from "@gateway/domain/mcp/ToolArguments"

export const SERVER_NAME = "gateway-agent-mcp"
export const SERVER_VERSION = "0.1.0"

type AgentTools = ReturnType<typeof makeAgentTools>

/**
 * What the server runs on: the agent's environment, or the reason it could not
 * be read. A server that cannot pay still starts, so the MCP host shows that
 * reason as each tool's error rather than only "Connection closed".
 */
export type AgentSetup =
  | { readonly _tag: "Ready"; readonly environment: AgentEnvironment }
  | { readonly _tag: "Failed"; readonly reason: string }

/** What every tool call answers when the settings could not be read: the setting at fault and where to fix it. */
export const setupProblem = (reason: string) =>
  `gateway-agent-mcp cannot start: ${reason}. Fix this server's environment in the MCP host's configuration (see @gateway/agent-mcp's README) and restart it.`

interface McpTool {
  readonly definition: Tool
  readonly call: (tools: AgentTools, args: unknown) => Promise<CallToolResult>
}

const textResult = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError } : {})
})

/** A tool whose arguments are checked (unknown ones refused by name) and decoded before `run` sees them. */
const tool = <const Fields extends ArgumentFields>(
  name: string,
  description: string,
  fields: Fields,
  run: (tools: AgentTools, args: Schema.Struct<Fields>["Type"]) => Effect.Effect<unknown, ToolFailed>
): McpTool => {
  const args = toolArguments(name, fields)
  return {
    definition: { name, description, inputSchema: { ...args.jsonSchema, type: "object" } },
    call: (tools, raw) =>
      args.parse(raw).pipe(
        Effect.mapError((refused) => refused.message),
        Effect.flatMap((decoded) => run(tools, decoded).pipe(Effect.mapError((e) => e.message))),
        Effect.match({ onFailure: (message) => textResult(message, true), onSuccess: (value) => textResult(value) }),
        Effect.runPromise
      )
  }
}

/** The five tools; their definitions need no environment, so a server that failed to start still lists them. */
const TOOLS: ReadonlyArray<McpTool> = [
  tool(
    "search_services",
    "Search the gateway's live paid services by words in their name or description. Returns one page of catalog entries (the authoritative terms of each) and a cursor for the next page.",
    SearchArguments,
    (tools, args) => tools.searchServices(args)
  ),
  tool(
    "get_service_terms",
    "The terms of one live service by its id (price, asset, payTo, method, resourceUrl), and the payment challenge (402) its resource answers an unpaid call with.",
    TermsArguments,
    (tools, args) => tools.serviceTerms(args)
  ),
  tool(
    "pay_and_call",
    "Call a paid service, paying its price from the agent's grant when the gateway asks for payment, within the owner's caps and policies. The payment is signed first and charged only when the seller answers: a failed call (503) costs nothing, and calling again with the same request presents the same payment. With payment \"session\" (for many calls to one seller) the first call opens a session (one deposit on chain) and each call is paid by a voucher signed off chain; a failed call costs nothing either. Answers the seller's status, content type and body, the payment's transaction digest (or the session and voucher amount), and whether it was charged.",
    PayAndCallArguments,
    (tools, args) => tools.payAndCall(args)
  ),
  tool("grant_budget", "The agent's grants as the chain holds them: cap, spent and remaining budget, in atomic units.", {}, (tools) => tools.grantBudget()),
  tool(
    "close_sessions",
    "Close every payment session pay_and_call opened: the seller is paid what the answered calls used, and the rest of each deposit goes back to the grant. Call it when done with a seller.",
    {},
    (tools) => tools.closeSessions()
  )
]

/** How a found tool is answered: by running it, or, when the settings could not be read, with that problem. */
const answerer = (setup: AgentSetup): (found: McpTool, args: unknown) => Promise<CallToolResult> => {
  if (setup._tag === "Failed") {
    const problem = textResult(setupProblem(setup.reason), true)
    return () => Promise.resolve(problem)
  }
  const tools = makeAgentTools(setup.environment)
  return (found, args) => found.call(tools, args)
}

/** The MCP server over the agent's tools; the key stays in the environment and no tool returns it. */
export const makeAgentMcpServer = (setup: AgentSetup) => {
  const answer = answerer(setup)
  const byName = new Map(TOOLS.map((t) => [t.definition.name, t]))
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    // The host may show `instructions` on connecting; the tool errors carry the same words.
    { capabilities: { tools: {} }, ...(setup._tag === "Failed" ? { instructions: setupProblem(setup.reason) } : {}) }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map((t) => t.definition) }))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const found = byName.get(request.params.name)
    return found === undefined
      ? textResult(`no tool named ${request.params.name}; the tools are ${TOOLS.map((t) => t.definition.name).join(", ")}`, true)
      : answer(found, request.params.arguments)
  })
  return server
}

/** Serves the agent's tools on stdin/stdout until the client closes them. */
export const serveStdio = (setup: AgentSetup) => makeAgentMcpServer(setup).connect(new StdioServerTransport())
