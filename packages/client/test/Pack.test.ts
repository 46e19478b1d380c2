import { execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"

const run = promisify(execFile)
const ROOT = new URL("../../../", import.meta.url).pathname
const PUBLISHED = ["@gateway/domain", "@gateway/chain", "@gateway/client", "@gateway/sui-pay", "@gateway/agent-mcp"]
/** Node 22, as the repository runs it, but with no `--conditions`: the installed packages' compiled `exports` only. */
const NODE = join(ROOT, "node_modules/.bin/node")
const TSC = join(ROOT, "node_modules/.bin/tsc")

/** npm's own settings from the npm that runs this test (its prefix among them) would point the child npm back at the repository. */
const npmEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")))

/** A consumer's script: plain JavaScript paying a gateway service with the installed SDK and printing what the seller said. */
const PAY_SCRIPT = `
import { makeAgent } from "@gateway/client/AgentSdk"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"

const manifest = JSON.parse(process.env.GATEWAY_MANIFEST_JSON)
const signer = Ed25519Keypair.fromSecretKey(process.env.AGENT_KEY)
const client = new SuiGrpcClient({ network: "localnet", baseUrl: manifest.apiBaseUrl + "/sui" })
const paid = await Effect.runPromise(makeAgent({ manifest, signer, client }).fetchPaid(process.env.RESOURCE_URL))
console.log(JSON.stringify({ status: paid.response.status, body: await paid.response.text(), digest: paid.digest }))
`

/** What a stdio MCP server writes to stderr before its first request: it waits on stdin, so it is stopped after. */
const startupProblem = (bin: string, cwd: string) =>
  new Promise<string>((resolve) => {
    const child = spawn(NODE, [bin], { cwd, env: { PATH: process.env["PATH"] ?? "" }, stdio: ["pipe", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes("\n")) child.kill()
    })
    const timer = setTimeout(() => child.kill(), 20_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve(stderr)
    })
  })

/** A consumer's TypeScript, checked against the installed declarations. */
const TYPED_SCRIPT = `
import { makeAgent, type PaidResponse } from "@gateway/client/AgentSdk"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type { Signer } from "@mysten/sui/cryptography"
import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Effect } from "effect"

export const pay = (manifest: ConnectionManifest, signer: Signer, client: ClientWithCoreApi, url: string): Effect.Effect<PaidResponse, unknown> =>
  makeAgent({ manifest, signer, client }).fetchPaid(url)
`

describe("the SDKs install from their tarballs and pay a gateway outside the workspace", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("npm pack, npm install in a fresh folder, then plain Node pays a live service and TypeScript sees the types", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const dir = mkdtempSync(join(tmpdir(), "gateway-pack-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const consumer = join(dir, "consumer")
        mkdirSync(consumer)
        const env = npmEnv()

        // prepack builds each package's dist/; builds this test made are removed after, so no stale build outlives it.
        const unbuilt = PUBLISHED.map((name) => join(ROOT, "packages", name.replace("@gateway/", ""), "dist")).filter((built) => !existsSync(built))
        yield* Effect.addFinalizer(() => Effect.sync(() => unbuilt.forEach((built) => rmSync(built, { recursive: true, force: true }))))
        yield* Effect.promise(() => run("npm", ["pack", "--silent", ...PUBLISHED.flatMap((name) => ["-w", name]), "--pack-destination", dir], { cwd: ROOT, env }))
        const tarballs = readdirSync(dir).filter((file) => file.endsWith(".tgz"))
        assert.strictEqual(tarballs.length, PUBLISHED.length)

        writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
        yield* Effect.promise(() =>
          run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs.map((file) => join(dir, file))], { cwd: consumer, env })
        )

        writeFileSync(join(consumer, "pay.mjs"), PAY_SCRIPT)
        const { stdout } = yield* Effect.promise(() =>
          run(NODE, ["pay.mjs"], {
            cwd: consumer,
            env: { PATH: process.env["PATH"] ?? "", GATEWAY_MANIFEST_JSON: JSON.stringify(manifest), AGENT_KEY: agentKey.getSecretKey(), RESOURCE_URL: entry.resourceUrl }
          })
        )
        const paid = JSON.parse(stdout)
        assert.strictEqual(paid.status, 200)
        assert.strictEqual(JSON.parse(paid.body).answer, 42)
        assert.isString(paid.digest)
        assert.strictEqual(upstream.calls.length, 1)

        writeFileSync(join(consumer, "typed.ts"), TYPED_SCRIPT)
        yield* Effect.promise(() =>
          run(TSC, ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--target", "es2022", "--lib", "es2023,dom", "--types", "", "typed.ts"], { cwd: consumer })
        )

        // Without its settings the installed bin still starts (a host shows its start-up problem) and says why on stderr.
        const bin = yield* Effect.promise(() => startupProblem(join(consumer, "node_modules/.bin/gateway-agent-mcp"), consumer))
        assert.match(bin, /set AGENT_KEY or AGENT_KEY_FILE/)
      }), 240_000)
  })
})
