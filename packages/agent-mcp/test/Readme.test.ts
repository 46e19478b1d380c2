import { execFile } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { makeApiClient } from "@gateway/client"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { connect, MAIN, toolText } from "./McpHost.ts"

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8")

/** The README's fenced blocks (indented ones in lists too), with their language, dedented. */
const blocks = (markdown: string) =>
  [...markdown.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```$/gm)].map(([, indent = "", lang = "", body = ""]) => ({
    lang,
    body: body.split("\n").map((line) => line.slice(indent.length)).join("\n")
  }))

/** The one block of `lang` that `pick` selects: the README's example must keep exactly one of each. */
const theBlock = (lang: string, pick: (body: string) => boolean) => {
  const found = blocks(README).filter((b) => b.lang === lang && pick(b.body))
  assert.lengthOf(found, 1, `one ${lang} block in README.md`)
  return found[0]?.body ?? ""
}

const MANIFEST = theBlock("sh", (b) => b.includes("/v1/delegated-signers/"))
const KEY_FILE = theBlock("sh", (b) => b.includes("agent.key") && !b.includes("gateway-agent-mcp"))
const RUN = theBlock("sh", (b) => b.includes("node_modules/.bin/gateway-agent-mcp"))
const HOST_CONFIG = theBlock("json", (b) => b.includes("mcpServers"))

/** The README's `/path/to/` placeholders, made this test's own directory. */
const placed = (text: string, dir: string) => text.replaceAll("/path/to/", `${dir}/`)

/** Runs a block with `sh`, without blocking this process: the gateway the block calls runs in it. */
const sh = (script: string, env: Record<string, string>) =>
  Effect.callback<string, Error>((resume) => {
    execFile("sh", ["-c", script], { env: { PATH: process.env["PATH"] ?? "", ...env }, encoding: "utf8" }, (error, stdout, stderr) =>
      resume(error === null ? Effect.succeed(stdout) : Effect.fail(new Error(`${error.message}\n${stderr}`))))
  }).pipe(Effect.orDie)

/**
 * `/path/to/project` with the bin where the install section puts it. The
 * install itself (npm pack tarballs) is not run here: the bin runs the sources,
 * as everything else in this repository's tests does.
 */
const installedBin = (dir: string) => {
  const bin = join(dir, "project", "node_modules", ".bin")
  mkdirSync(bin, { recursive: true })
  const file = join(bin, "gateway-agent-mcp")
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" --conditions=@gateway/source "${MAIN}" "$@"\n`)
  chmodSync(file, 0o755)
}

/** The JSON block: an MCP host's `mcpServers` entry, as hosts read it. */
const HostConfig = Schema.Struct({
  mcpServers: Schema.Record(
    Schema.String,
    Schema.Struct({
      command: Schema.String,
      args: Schema.optionalKey(Schema.Array(Schema.String)),
      env: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
    })
  )
})

const hostServer = (text: string) => {
  const [server] = Object.values(Schema.decodeUnknownSync(Schema.fromJsonString(HostConfig))(text).mcpServers)
  assert.isDefined(server, "one server in the host configuration")
  return { command: server?.command ?? "", args: server?.args ?? [], env: server?.env ?? {} }
}

describe("packages/agent-mcp/README.md: its examples, run as written", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("the owner saves the manifest, the key goes in a file, and the shell command and the host configuration both serve the tools", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { owner, session, asOwner } = yield* fundedOwner(client)
        const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: upstream.url })
        const { agentKey, signerId } = yield* grantedAgent(client, owner, asOwner, { key: "readme", budget: 10_000n, perPayment: 100n })
        const dir = mkdtempSync(join(tmpdir(), "agent-mcp-readme-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        installedBin(dir)

        yield* sh(placed(MANIFEST, dir), { OWNER_TOKEN: session.authorization.replace(/^Bearer /, ""), GATEWAY_URL: baseUrl, SIGNER_ID: signerId })
        yield* sh(placed(KEY_FILE, dir), { AGENT_KEY: agentKey.getSecretKey() })

        const config = hostServer(placed(HOST_CONFIG, dir))
        const servers = [
          yield* connect({}, { command: "sh", args: ["-c", placed(RUN, dir)] }),
          yield* connect(config.env, { command: config.command, args: config.args })
        ]
        for (const server of servers) {
          const found = yield* Effect.promise(() => server.call("search_services", { query: entry.name.split(" ")[0] ?? "" }))
          assert.notStrictEqual(found.isError, true, toolText(found))
          assert.include(JSON.parse(toolText(found)).services.map((s: { id: string }) => s.id), entry.id)
          const terms = yield* Effect.promise(() => server.call("get_service_terms", { serviceId: entry.id }))
          assert.strictEqual(JSON.parse(toolText(terms)).challengeStatus, 402)
          const unknown = yield* Effect.promise(() => server.call("get_service_terms", { id: entry.id }))
          assert.isTrue(unknown.isError)
          assert.strictEqual(toolText(unknown), 'get_service_terms has no argument "id"; its arguments are serviceId')
        }

        // The README's tool table names each tool's arguments as the server advertises them.
        const { tools } = yield* Effect.promise(() => servers[0]?.client.listTools() ?? Promise.resolve({ tools: [] }))
        assert.lengthOf(tools, 5)
        for (const tool of tools) {
          const row = README.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` |`)) ?? ""
          const documented = [...(row.split("|")[2] ?? "").matchAll(/`(\w+)`/g)].map(([, name]) => name)
          assert.sameMembers(documented, Object.keys(tool.inputSchema.properties ?? {}), tool.name)
        }
      }), { timeout: 60_000 })

    it.effect("the manifest route's URL as GATEWAY_MANIFEST (the old example) is answered with the fix, as the tools' error", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const { agentKey, signerId } = yield* grantedAgent(client, owner, asOwner, { key: "readme-url", budget: 1_000n, perPayment: 100n })
        const server = yield* connect({
          AGENT_KEY: agentKey.getSecretKey(),
          GATEWAY_MANIFEST: `${baseUrl}/v1/delegated-signers/${signerId}/manifest`
        })
        const result = yield* Effect.promise(() => server.call("search_services"))
        assert.isTrue(result.isError)
        assert.include(toolText(result), "401: the gateway's manifest route needs the owner's session")
        assert.include(toolText(result), "set GATEWAY_MANIFEST to its path")
      }), { timeout: 30_000 })
  })
})
