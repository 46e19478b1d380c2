#!/usr/bin/env node
/**
 * `gateway-agent-mcp`: the agent's own MCP server on stdio. Its settings come
 * from the environment (README.md). A setting at fault (never a key) is named
 * on stderr, and the server still starts: an MCP host shows a server that
 * exits only as "Connection closed", so every tool call answers the problem
 * instead, as an error the host shows.
 */
import { Effect, Exit } from "effect"
import { loadAgentEnvironment } from "./AgentEnvironment.ts"
import { serveStdio } from "./AgentMcpServer.ts"

const loaded = await Effect.runPromiseExit(loadAgentEnvironment(process.env))
if (Exit.isSuccess(loaded)) {
  await serveStdio({ _tag: "Ready", environment: loaded.value })
} else {
  const error = Exit.findErrorOption(loaded)
  const reason = error._tag === "Some" ? error.value.reason : "its settings cannot be read"
  process.stderr.write(`gateway-agent-mcp: ${reason}\n`)
  await serveStdio({ _tag: "Failed", reason })
}
