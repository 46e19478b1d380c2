import { execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import {
  expectedVersion,
  installLine,
  jsBlock,
  PUBLISHED,
  type Readme,
  READMES,
  readmeText,
  registryPackages,
  TARBALLS_PLACEHOLDER,
  tarballsNamed,
  withSiblings
} from "./support/ReadmeInstall.ts"

const run = promisify(execFile)
const ROOT = new URL("../../../", import.meta.url).pathname
/** Node 22, as the repository runs it, but with no `--conditions`: the installed packages' compiled `exports` only. */
const NODE = join(ROOT, "node_modules/.bin/node")
const TSC = join(ROOT, "node_modules/.bin/tsc")

/**
 * npm's own settings from the npm that runs this test (its prefix among them) would point the child npm back at the
 * repository. The README's command runs as written; these only spare the registry what the cache already holds.
 */
const npmEnv = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))),
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false"
})

/** Runs a README's install line with `sh` in `consumer`, the tarballs' folder in place of its `/path/to/gateway-packages`. */
const installAsWritten = (readme: Readme, tarballs: string, consumer: string) => {
  mkdirSync(consumer)
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  const line = installLine(readmeText(readme)).replaceAll(TARBALLS_PLACEHOLDER, tarballs)
  return run("sh", ["-c", line], { cwd: consumer, env: npmEnv() }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`${readme.path}: \`${line}\` failed: ${error.stderr ?? error.message}`)
  })
}

/** The consumer's TypeScript check of the installed declarations; `node` types from the repository, for `node:fs` and `process`. */
const tscIn = (consumer: string, file: string, ...flags: ReadonlyArray<string>) =>
  run(TSC, ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--target", "es2022", "--lib", "es2023,dom", ...flags, file], { cwd: consumer })

/** Type-checks a README's example as the `.mjs` file it is saved as, the way an editor would with `checkJs`. */
const checkSnippet = (consumer: string) => tscIn(consumer, "pay.mjs", "--allowJs", "--checkJs", "--typeRoots", join(ROOT, "node_modules/@types"), "--types", "node")

/** Runs a README's `js` block as the file it says to save, in `consumer`, with plain Node and the given arguments. */
const runSnippet = (consumer: string, code: string, args: ReadonlyArray<string>) => {
  writeFileSync(join(consumer, "pay.mjs"), code)
  return run(NODE, ["pay.mjs", ...args], { cwd: consumer, env: { PATH: process.env["PATH"] ?? "" } }).then(({ stdout }) => stdout)
}

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

describe("each README's install line", () => {
  for (const readme of READMES) {
    it(`${readme.path}: every tarball its packages need, in the one command, and the registry's packages at the tarballs' versions`, () => {
      const line = installLine(readmeText(readme))
      // A sibling left off the command line would be looked up on the public registry, where @gateway is not ours.
      assert.includeMembers([...tarballsNamed(line)], [...withSiblings(readme.packages)])
      for (const { name, version } of registryPackages(line)) assert.strictEqual(version, expectedVersion(name), `${readme.path}: ${name}`)
    })
  }
})

/** A README of `READMES`, by its path. */
const readmeAt = (path: string): Readme => READMES.find((readme) => readme.path === path) ?? { path, packages: [] }

/** Packs the SDKs once into `into`; builds this test made are removed after, so no stale build outlives it. */
const packAll = (into: string) =>
  Effect.gen(function*() {
    const unbuilt = PUBLISHED.map((name) => join(ROOT, "packages", name.replace("@gateway/", ""), "dist")).filter((built) => !existsSync(built))
    yield* Effect.addFinalizer(() => Effect.sync(() => unbuilt.forEach((built) => rmSync(built, { recursive: true, force: true }))))
    // prepack builds each package's dist/.
    yield* Effect.promise(() => run("npm", ["pack", "--silent", ...PUBLISHED.flatMap((name) => ["-w", name]), "--pack-destination", into], { cwd: ROOT, env: npmEnv() }))
    assert.strictEqual(readdirSync(into).filter((file) => file.endsWith(".tgz")).length, PUBLISHED.length)
  })

describe("the SDKs install from their tarballs as each README says, and pay a gateway outside the workspace", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("npm pack once, each README's npm install line in a fresh folder, then its example pays a live service with plain Node", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const dir = mkdtempSync(join(tmpdir(), "gateway-pack-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const tarballs = join(dir, "gateway-packages")
        mkdirSync(tarballs)
        yield* packAll(tarballs)

        // One install per README, side by side: the registry's packages come from one warm cache.
        const consumerOf = (readme: Readme) => join(dir, readme.path.replaceAll("/", "-"))
        yield* Effect.promise(() => Promise.all(READMES.map((readme) => installAsWritten(readme, tarballs, consumerOf(readme)))))

        // The owner's files for the agent, where the READMEs' examples read them.
        const [client, suiPay] = [readmeAt("packages/client/README.md"), readmeAt("packages/sui-pay/README.md")].map(consumerOf)
        for (const consumer of [client ?? "", suiPay ?? ""]) {
          writeFileSync(join(consumer, "manifest.json"), JSON.stringify(manifest))
          writeFileSync(join(consumer, "agent.key"), `${agentKey.getSecretKey()}\n`)
        }
        const typedExample = jsBlock(readmeText(readmeAt("packages/client/README.md")), (body) => body.includes("makeAgent("))
        const paid = yield* Effect.promise(() => runSnippet(client ?? "", typedExample, [entry.id]))
        assert.match(paid, /^200 \{"answer":42\b[^\n]*\} \S+ true\n$/)
        yield* Effect.promise(() => checkSnippet(client ?? ""))
        const standardExample = jsBlock(readmeText(readmeAt("packages/sui-pay/README.md")), (body) => body.startsWith("// file: pay.mjs"))
        const paidTwice = yield* Effect.promise(() => runSnippet(suiPay ?? "", standardExample, [entry.id]))
        assert.match(paidTwice, /^x402 200 \{"answer":42\b[^\n]*\}\nmpp 200 \{"answer":42\b[^\n]*\}\n$/)
        yield* Effect.promise(() => checkSnippet(suiPay ?? ""))
        assert.strictEqual(upstream.calls.length, 3)

        writeFileSync(join(client ?? "", "typed.ts"), TYPED_SCRIPT)
        yield* Effect.promise(() => tscIn(client ?? "", "typed.ts", "--types", ""))

        // Without its settings the installed bin still starts (a host shows its start-up problem) and says why on stderr.
        for (const path of ["packages/agent-mcp/README.md", "README.md"]) {
          const consumer = consumerOf(readmeAt(path))
          const bin = yield* Effect.promise(() => startupProblem(join(consumer, "node_modules/.bin/gateway-agent-mcp"), consumer))
          assert.match(bin, /set AGENT_KEY or AGENT_KEY_FILE/, path)
        }
      }), 300_000)
  })
})
