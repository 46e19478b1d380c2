import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"

const MAIN = new URL("../src/main.ts", import.meta.url).pathname

/** The text of a tool's one text content, parsed as JSON unless the call failed. */
const toolText = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const [first] = Array.isArray(result.content) ? result.content : []
  return typeof first === "object" && first !== null && "text" in first && typeof first.text === "string" ? first.text : ""
}

/** The agent's MCP server, spawned as an MCP host would (the bin, on this Node), connected to a client for the scope. */
const connect = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "test-host", version: "0.0.0" })
      await client.connect(new StdioClientTransport({
        command: process.execPath,
        args: ["--conditions=@gateway/source", MAIN],
        env: { PATH: process.env["PATH"] ?? "", ...env },
        stderr: "inherit"
      }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("gateway-agent-mcp: an agent finds, pays for and calls a service over stdio MCP", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("lists its tools, searches, reads terms, pays and calls, and reads the budget reduced by the price", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const dir = mkdtempSync(join(tmpdir(), "agent-mcp-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const manifestFile = join(dir, "manifest.json")
        writeFileSync(manifestFile, JSON.stringify(manifest))
        const secret = agentKey.getSecretKey()
        const client = yield* connect({ AGENT_KEY: secret, GATEWAY_MANIFEST: manifestFile })
        const call = (name: string, args: Record<string, unknown> = {}) => Effect.promise(() => client.callTool({ name, arguments: args }))

        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((t) => t.name).sort(), ["close_sessions", "get_service_terms", "grant_budget", "pay_and_call", "search_services"])

        const before = JSON.parse(toolText(yield* call("grant_budget")))
        assert.strictEqual(before.grants[0].remaining, "10000")

        const found = JSON.parse(toolText(yield* call("search_services", { query: "answer" })))
        assert.include(found.services.map((s: { id: string }) => s.id), entry.id)

        const terms = JSON.parse(toolText(yield* call("get_service_terms", { serviceId: entry.id })))
        assert.strictEqual(terms.service.resourceUrl, entry.resourceUrl)
        assert.strictEqual(terms.challengeStatus, 402)
        assert.strictEqual(terms.paymentRequired.accepts[0].amount, "40")

        const paidResult = yield* call("pay_and_call", { url: entry.resourceUrl })
        const paid = JSON.parse(toolText(paidResult))
        assert.strictEqual(paid.status, 200)
        assert.match(paid.contentType, /^application\/json/)
        assert.strictEqual(JSON.parse(paid.body).answer, 42)
        assert.isString(paid.digest)

        const after = JSON.parse(toolText(yield* call("grant_budget")))
        assert.strictEqual(after.grants[0].spent, "40")
        assert.strictEqual(after.grants[0].remaining, "9960")

        const refused = yield* call("pay_and_call", { url: "http://127.0.0.1:9/elsewhere" })
        assert.isTrue(refused.isError)
        for (const text of [toolText(paidResult), toolText(refused)]) assert.notInclude(text, secret)
      }))

    it.effect("pays three calls from one session, then close_sessions returns the rest: the budget shows exactly the three calls", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const dir = mkdtempSync(join(tmpdir(), "agent-mcp-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const manifestFile = join(dir, "manifest.json")
        writeFileSync(manifestFile, JSON.stringify(manifest))
        const client = yield* connect({ AGENT_KEY: agentKey.getSecretKey(), GATEWAY_MANIFEST: manifestFile })
        const call = (name: string, args: Record<string, unknown> = {}) => Effect.promise(() => client.callTool({ name, arguments: args }))

        const sessions = new Set<string>()
        for (let n = 1; n <= 3; n++) {
          const paid = JSON.parse(toolText(yield* call("pay_and_call", { url: entry.resourceUrl, payment: "session" })))
          assert.strictEqual(paid.status, 200)
          assert.isTrue(paid.charged)
          assert.strictEqual(paid.session.cumulativeAmount, String(40 * n))
          sessions.add(paid.session.sessionId)
        }
        assert.strictEqual(sessions.size, 1, "one session for the three calls")
        const open = JSON.parse(toolText(yield* call("grant_budget")))
        assert.strictEqual(open.grants[0].spent, String(100 * 40), "the deposit (100 calls) counts while the session is open")

        const closed = JSON.parse(toolText(yield* call("close_sessions")))
        assert.deepInclude(closed.sessions[0], { closed: true, claimed: "120", returned: String(97 * 40) })
        const after = JSON.parse(toolText(yield* call("grant_budget")))
        assert.strictEqual(after.grants[0].spent, "120")
      }))
  })

  it("names the setting at fault and never echoes a malformed key", () => {
    const malformed = "suiprivkey1qqqqnotakeyatall"
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--conditions=@gateway/source", MAIN], { env: { PATH: process.env["PATH"] ?? "", ...env }, encoding: "utf8" })
    const badKey = run({ AGENT_KEY: malformed, GATEWAY_MANIFEST: "/nonexistent" })
    assert.strictEqual(badKey.status, 1)
    assert.match(badKey.stderr, /the agent key is not a Sui private key export/)
    assert.notInclude(badKey.stderr + badKey.stdout, malformed)
    const noManifest = run({ AGENT_KEY: new Ed25519Keypair().getSecretKey() })
    assert.strictEqual(noManifest.status, 1)
    assert.match(noManifest.stderr, /set GATEWAY_MANIFEST/)
  })
})
