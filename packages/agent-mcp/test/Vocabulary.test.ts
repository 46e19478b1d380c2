import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unknownArgumentsMessage } from "@gateway/domain/mcp/ToolArguments"
import { BaseUrl, layerTestServer } from "../../server/test/support/TestServer.ts"
import { connect } from "./McpHost.ts"

/** The tools both servers offer: one vocabulary (docs/decisions.md, "One MCP vocabulary"). */
const SHARED = ["search_services", "get_service_terms"]

const connectGateway = (baseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "test-host", version: "0.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("one MCP vocabulary: the gateway's /mcp and the agent's stdio server", () => {
  layer(layerTestServer(), { excludeTestServices: true })((it) => {
    it.effect("the tools they share have the same names, arguments, meanings and schemas, and take no other argument", () =>
      Effect.gen(function*() {
        const gateway = yield* connectGateway(yield* BaseUrl)
        // Without settings the stdio server still lists its tools (each call would answer the missing setting).
        const agent = yield* connect({})
        const gatewayTools = (yield* Effect.promise(() => gateway.listTools())).tools
        const agentTools = (yield* Effect.promise(() => agent.client.listTools())).tools
        const shared = gatewayTools.map((t) => t.name).filter((name) => agentTools.some((t) => t.name === name))
        assert.sameMembers(shared, SHARED)
        for (const name of SHARED) {
          const onGateway = gatewayTools.find((t) => t.name === name)
          const onAgent = agentTools.find((t) => t.name === name)
          assert.deepStrictEqual(onAgent?.inputSchema, onGateway?.inputSchema, name)
        }
        const search = gatewayTools.find((t) => t.name === "search_services")
        assert.sameMembers(Object.keys(search?.inputSchema.properties ?? {}), ["query", "limit", "cursor"])
        const terms = gatewayTools.find((t) => t.name === "get_service_terms")
        assert.deepStrictEqual(terms?.inputSchema.required, ["serviceId"])
        for (const tool of [...gatewayTools, ...agentTools]) assert.strictEqual(tool.inputSchema["additionalProperties"], false, tool.name)
      }))
  })

  it("both word an unknown argument the same way (one check in @gateway/domain): which argument, and which are accepted", () => {
    assert.strictEqual(unknownArgumentsMessage("get_service_terms", ["serviceId"], ["id", "name"]), 'get_service_terms has no arguments "id", "name"; its arguments are serviceId')
    assert.strictEqual(unknownArgumentsMessage("grant_budget", [], ["all"]), 'grant_budget has no argument "all"; grant_budget takes no arguments')
    assert.strictEqual(unknownArgumentsMessage("search_services", ["query", "limit", "cursor"], ["q"]), 'search_services has no argument "q"; its arguments are query, limit, cursor')
  })
})
