#!/usr/bin/env node
/**
 * `gateway-agent-mcp`: the agent's own MCP server on stdio. Its settings come
 * from the environment (README.md); a setting at fault is named on stderr,
 * never a key.
 */
import { Effect, Exit } from "effect"
import { loadAgentEnvironment } from "./AgentEnvironment.ts"
import { serveStdio } from "./AgentMcpServer.ts"

const loaded = await Effect.runPromiseExit(loadAgentEnvironment(process.env))
if (Exit.isFailure(loaded)) {
  const reason = Exit.findErrorOption(loaded)
  process.stderr.write(`gateway-agent-mcp: ${reason._tag === "Some" ? reason.value.reason : "cannot start"}\n`)
  process.exit(1)
}
await serveStdio(loaded.value)
