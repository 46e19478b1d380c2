import type { Stream } from "node:stream"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect } from "effect"

export const MAIN = new URL("../src/main.ts", import.meta.url).pathname

/** The bin as an MCP host starts it from a checkout: this Node, on the sources. */
export const SOURCE_COMMAND = { command: process.execPath, args: ["--conditions=@gateway/source", MAIN] } as const

/** The text of a tool's one text content. */
export const toolText = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const [first] = Array.isArray(result.content) ? result.content : []
  return typeof first === "object" && first !== null && "text" in first && typeof first.text === "string" ? first.text : ""
}

/** What the server wrote on stderr so far, which a host shows in its log. */
export interface Stderr {
  readonly text: () => string
}

const collect = (stream: Stream | null): Stderr => {
  let text = ""
  stream?.on("data", (chunk: Buffer) => {
    text += chunk.toString()
  })
  return { text: () => text }
}

/**
 * A stdio MCP server started as an MCP host would (`command`, `args`, `env`
 * and nothing else of this process's environment but PATH), connected to a
 * client for the scope.
 */
export const connect = (
  env: Record<string, string>,
  command: { readonly command: string; readonly args: ReadonlyArray<string> } = SOURCE_COMMAND
) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "test-host", version: "0.0.0" })
      const transport = new StdioClientTransport({
        command: command.command,
        args: [...command.args],
        env: { PATH: process.env["PATH"] ?? "", ...env },
        stderr: "pipe"
      })
      const stderr = collect(transport.stderr)
      await client.connect(transport)
      const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args })
      return { client, stderr, call }
    }),
    ({ client }) => Effect.promise(() => client.close())
  )
