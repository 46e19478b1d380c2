import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { connect, toolText } from "./McpHost.ts"

/** A live paid service and its agent's stdio MCP server, started with the agent's key and a manifest file. */
const connectedAgent = Effect.gen(function*() {
  const upstream = yield* Upstream
  const { entry, agentKey, manifest } = yield* paidService(upstream.url)
  const dir = mkdtempSync(join(tmpdir(), "agent-mcp-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const manifestFile = join(dir, "manifest.json")
  writeFileSync(manifestFile, JSON.stringify(manifest))
  const secret = agentKey.getSecretKey()
  const { client, call: callTool } = yield* connect({ AGENT_KEY: secret, GATEWAY_MANIFEST: manifestFile })
  const call = (name: string, args: Record<string, unknown> = {}) => Effect.promise(() => callTool(name, args))
  return { entry, secret, client, call }
})

describe("gateway-agent-mcp: an agent finds, pays for and calls a service over stdio MCP", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("lists its tools, searches, reads terms, pays and calls, and reads the budget reduced by the price", () =>
      Effect.gen(function*() {
        const { entry, secret, client, call } = yield* connectedAgent

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
        const { entry, call } = yield* connectedAgent

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

  it.effect("a setting at fault: the server starts, lists its tools, and every tool call answers the setting, never the key", () =>
    Effect.gen(function*() {
      const malformed = "suiprivkey1qqqqnotakeyatall"
      const badKey = yield* connect({ AGENT_KEY: malformed, GATEWAY_MANIFEST: "/nonexistent" })
      const { tools } = yield* Effect.promise(() => badKey.client.listTools())
      assert.lengthOf(tools, 5)
      assert.match(badKey.client.getInstructions() ?? "", /the agent key is not a Sui private key export/)
      for (const name of ["search_services", "grant_budget", "pay_and_call"]) {
        const result = yield* Effect.promise(() => badKey.call(name, { url: "http://127.0.0.1:9/" }))
        assert.isTrue(result.isError, name)
        assert.match(toolText(result), /^gateway-agent-mcp cannot start: the agent key is not a Sui private key export/)
        assert.notInclude(toolText(result), malformed)
      }
      assert.match(badKey.stderr.text(), /the agent key is not a Sui private key export/)
      assert.notInclude(badKey.stderr.text(), malformed)

      const noManifest = yield* connect({ AGENT_KEY: new Ed25519Keypair().getSecretKey() })
      const result = yield* Effect.promise(() => noManifest.call("search_services"))
      assert.isTrue(result.isError)
      assert.match(toolText(result), /set GATEWAY_MANIFEST/)

      const unreadable = yield* connect({ AGENT_KEY: new Ed25519Keypair().getSecretKey(), GATEWAY_MANIFEST: "/nonexistent/manifest.json" })
      assert.match(toolText(yield* Effect.promise(() => unreadable.call("grant_budget"))), /GATEWAY_MANIFEST \/nonexistent\/manifest.json cannot be read/)
    }), { timeout: 30_000 })
})
