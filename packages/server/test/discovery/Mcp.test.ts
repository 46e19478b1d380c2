import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Ajv } from "ajv"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { PROOF_VERSION } from "@gateway/domain/PaymentProof"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"
import { cardSchema } from "../support/ServerCardSchema.ts"

/** An MCP client from the reference SDK, connected for the scope's lifetime. */
const connect = (baseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "gateway-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const call = (client: Client, name: string, args: Record<string, unknown>) => Effect.promise(() => client.callTool({ name, arguments: args }))

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  Array.isArray(result.content) ? result.content.map((c: { type: string; text?: string }) => c.text ?? "").join("") : ""


describe("MCP server", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("an MCP client lists the discovery tools, finds a live service, reads its terms and how to pay", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const api = yield* makeApiClient(baseUrl)
        const seller = withOwner((yield* signIn(api, new Ed25519Keypair())).authorization)
        const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        const { service } = yield* api.sellers.register({
          payload: {
            name: "Tide Tables",
            description: "high and low tides for a harbour",
            method: "GET",
            path: "/tides",
            price: PositiveAtomicAmount.make("700"),
            asset: CoinType.make("0x2::sui::SUI"),
            decimals: 9,
            payTo,
            upstreamUrl: "http://127.0.0.1:9/tides"
          }
        }).pipe(seller)
        yield* api.sellers.activate({ params: { id: service.id } }).pipe(seller)

        const client = yield* connect(baseUrl)
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.sameMembers(tools.map((t) => t.name), ["search_services", "get_service_terms", "how_to_pay"])

        const found = yield* call(client, "search_services", { query: "tide", limit: 5 })
        assert.notStrictEqual(found.isError, true, textOf(found))
        const page = found.structuredContent as { count: number; services: ReadonlyArray<{ id: string }>; nextCursor: string | null }
        assert.deepStrictEqual(page.services.map((s) => s.id), [service.id])
        assert.strictEqual(page.count, 1)

        const terms = yield* call(client, "get_service_terms", { serviceId: service.id })
        assert.notStrictEqual(terms.isError, true, textOf(terms))
        const entry = terms.structuredContent as Record<string, unknown>
        assert.deepStrictEqual(
          { price: entry.price, asset: entry.asset, payTo: entry.payTo, resourceUrl: entry.resourceUrl, rail: entry.rail },
          { price: "700", asset: service.asset, payTo, resourceUrl: `${baseUrl}/v1/pay/${service.id}`, rail: "delegate" }
        )
        assert.deepStrictEqual(entry, { ...(yield* api.services.get({ params: { id: service.id } })) })

        const guide = yield* call(client, "how_to_pay", {})
        assert.notStrictEqual(guide.isError, true, textOf(guide))
        const text = textOf(guide)
        for (const part of ["402", "nonce", "memo", PROOF_VERSION, "PAYMENT-SIGNATURE", "Authorization: Payment", "NOT_FINAL", "::spend_account::pay", "signFirst", "payload: { signature, transaction }", "/v1/gas-station", "nothing_charged", "settlement_failed"]) {
          assert.include(text, part)
        }
        assert.notInclude(text, "@gateway/", "the guide names no package scope that is not ours")
      }))

    it.effect("an unknown service or a bad argument is a tool error, and the session goes on", () =>
      Effect.gen(function*() {
        const client = yield* connect(yield* BaseUrl)
        const unknown = yield* call(client, "get_service_terms", { serviceId: "svc_does_not_exist" })
        assert.isTrue(unknown.isError)
        assert.include(textOf(unknown), "No such service")
        const badCursor = yield* call(client, "search_services", { cursor: "not-a-cursor" })
        assert.isTrue(badCursor.isError)
        assert.include(textOf(badCursor), "not a cursor this server issued")
        const badLimit = yield* call(client, "search_services", { limit: 0 })
        assert.isTrue(badLimit.isError)
        assert.include(textOf(badLimit), "invalid arguments to search_services")
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.lengthOf(tools, 3)
      }))

    it.effect("an unknown argument is a tool error naming it and the accepted ones; the advertised schemas admit no other", () =>
      Effect.gen(function*() {
        const client = yield* connect(yield* BaseUrl)
        const search = yield* call(client, "search_services", { q: "tide" })
        assert.isTrue(search.isError)
        assert.strictEqual(textOf(search), 'search_services has no argument "q"; its arguments are query, limit, cursor')
        const terms = yield* call(client, "get_service_terms", { id: "svc_x", serviceId: "svc_x" })
        assert.isTrue(terms.isError)
        assert.strictEqual(textOf(terms), 'get_service_terms has no argument "id"; its arguments are serviceId')
        const guide = yield* call(client, "how_to_pay", { verbose: true, lang: "en" })
        assert.isTrue(guide.isError)
        assert.strictEqual(textOf(guide), 'how_to_pay has no arguments "verbose", "lang"; how_to_pay takes no arguments')
        const { tools } = yield* Effect.promise(() => client.listTools())
        for (const tool of tools) assert.strictEqual(tool.inputSchema["additionalProperties"], false, tool.name)
      }))

    it.effect("a browser origin, a GET and a wrong media type are refused with a JSON-RPC body and their own status", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const initialize = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
        })
        const post = (headers: Record<string, string>) =>
          Effect.promise(() => fetch(`${baseUrl}/mcp`, { method: "POST", headers, body: initialize }).then(async (r) => ({ status: r.status, body: await r.json() as { jsonrpc?: string } })))
        const fromPage = yield* post({ "content-type": "application/json", accept: "application/json, text/event-stream", origin: "https://evil.example" })
        assert.strictEqual(fromPage.status, 403)
        assert.strictEqual(fromPage.body.jsonrpc, "2.0")
        const notJson = yield* post({ "content-type": "text/plain", accept: "application/json, text/event-stream" })
        assert.strictEqual(notJson.status, 415)
        const get = yield* Effect.promise(() => fetch(`${baseUrl}/mcp`, { headers: { accept: "text/event-stream" } }))
        assert.strictEqual(get.status, 405)
        assert.include(get.headers.get("allow") ?? "", "POST")
      }))

    it.effect("the server card has SEP-2127's fields, CORS *, names /mcp and its tools; mcp.json is the same card", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const response = yield* Effect.promise(() => fetch(`${baseUrl}/.well-known/mcp/server-card`))
        assert.strictEqual(response.status, 200)
        assert.match(response.headers.get("content-type") ?? "", /^application\/json/)
        assert.strictEqual(response.headers.get("access-control-allow-origin"), "*")
        const card = yield* Effect.promise(() => response.json() as Promise<{ remotes: ReadonlyArray<{ url: string }>; tools: ReadonlyArray<{ name: string }> }>)
        const validate = new Ajv().compile(cardSchema)
        assert.isTrue(validate(card), JSON.stringify(validate.errors))
        assert.strictEqual(card.remotes[0]?.url, `${baseUrl}/mcp`)

        const client = yield* connect(baseUrl)
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.sameMembers(card.tools.map((t) => t.name), tools.map((t) => t.name))

        // The alias passes through the catalog caching, which rebuilds the response: CORS must survive it.
        const alias = yield* Effect.promise(() => fetch(`${baseUrl}/.well-known/mcp.json`))
        assert.strictEqual(alias.headers.get("access-control-allow-origin"), "*")
        assert.deepStrictEqual(yield* Effect.promise(() => alias.json()), card)
      }))
  })
})
