import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type RunningServer, startGateway } from "../../../../scripts/bench/ServerProcess.ts"
import { staleReason } from "../../../../scripts/fresh-bundle.ts"
import { buildServer } from "../../build.ts"

const run = promisify(execFile)
const ROOT = new URL("../../../../", import.meta.url).pathname
/** The addresses the quickstarts are written for, replaced by the test's own gateway and upstream. */
const DOC_GATEWAY = "127.0.0.1:8787"
const DOC_UPSTREAM = "127.0.0.1:9999"

/** One step of a quickstart: a file to save, or a shell command to run (the convention each page states first). */
type Step = { readonly kind: "file"; readonly name: string; readonly text: string } | { readonly kind: "sh"; readonly text: string }

/** The page's ```sh blocks and its ```js blocks whose first line is `// file: NAME`, in order; other blocks are prose. */
const quickstartSteps = (markdown: string): ReadonlyArray<Step> =>
  [...markdown.matchAll(/^```(sh|js)\n([\s\S]*?)^```$/gm)].flatMap((match): Array<Step> => {
    const [, lang, text = ""] = match
    if (lang === "sh") return [{ kind: "sh", text }]
    const name = /^\/\/ file: (\S+)\n/.exec(text)?.[1]
    return name === undefined ? [] : [{ kind: "file", name, text }]
  })

/** npm's own settings from the npm running vitest would point the child npm back at the repository. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")))

/** The SDK the agent's quickstart installs as tarballs for its typed-client alternative, in build order. */
const SDK = ["domain", "chain", "client"]

/**
 * Packs the SDK as a reader does from a checkout (`npm pack`, whose prepack builds dist/), but from a copy of its
 * packages: packing in the repository writes each dist/, which Pack.test.ts, running meanwhile, builds and removes.
 */
const packSdk = async (into: string) => {
  const mirror = join(into, "mirror")
  for (const file of ["tsconfig.json", "tsconfig.build.json"]) cpSync(join(ROOT, file), join(mirror, file))
  mkdirSync(join(mirror, "node_modules/@gateway"), { recursive: true })
  for (const entry of readdirSync(join(ROOT, "node_modules")).filter((entry) => entry !== "@gateway")) {
    symlinkSync(join(ROOT, "node_modules", entry), join(mirror, "node_modules", entry))
  }
  for (const name of SDK) {
    const own = join(ROOT, "packages", name)
    cpSync(own, join(mirror, "packages", name), { recursive: true, filter: (path) => path !== join(own, "dist") && path !== join(own, "node_modules") })
    symlinkSync(join(mirror, "packages", name), join(mirror, "node_modules/@gateway", name))
  }
  const env = { ...cleanEnv(), PATH: `${join(ROOT, "node_modules/.bin")}:${process.env["PATH"] ?? ""}` }
  for (const name of SDK) await run("npm", ["pack", "--silent", "--pack-destination", into], { cwd: join(mirror, "packages", name), env })
  rmSync(mirror, { recursive: true, force: true })
}

/** Runs a page's steps in `dir` against the running gateway and upstream; answers each shell step's output. */
const runQuickstart = async (page: string, dir: string, gateway: string, upstream: string, extraEnv: Record<string, string> = {}) => {
  const outputs: Array<string> = []
  const local = (text: string) => text.replaceAll(DOC_GATEWAY, gateway).replaceAll(DOC_UPSTREAM, upstream)
  for (const step of quickstartSteps(readFileSync(join(ROOT, "docs", page), "utf8"))) {
    if (step.kind === "file") {
      writeFileSync(join(dir, step.name), local(step.text))
      continue
    }
    // The repository's Node 22 first on PATH, as a reader's own Node 22 would be.
    const env = { ...cleanEnv(), PATH: `${join(ROOT, "node_modules/.bin")}:${process.env["PATH"] ?? ""}`, npm_config_prefer_offline: "true", ...extraEnv }
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", local(step.text)], { cwd: dir, env, timeout: 180_000 }).catch(
      (e: { stdout?: string; stderr?: string }) => {
        throw new Error(`${page}: step failed:\n${step.text}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`)
      }
    )
    outputs.push(stdout)
  }
  return outputs
}

describe("the quickstarts run as written against a fresh local gateway", () => {
  const dir = mkdtempSync(join(tmpdir(), "gateway-quickstart-"))
  let gateway: RunningServer | undefined
  let upstream: Server | undefined
  let upstreamHost = ""
  const calls: Array<string> = []
  const gatewayHost = () => (gateway === undefined ? "" : new URL(gateway.url).host)

  beforeAll(async () => {
    if (process.env["QUICKSTART_GATEWAY_ROOT"] === undefined && staleReason() !== undefined) await buildServer()
    const seller = createServer((request, response) => {
      calls.push(request.url ?? "")
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ forecast: "sunny" }))
    })
    await new Promise<void>((resolve) => seller.listen(0, "127.0.0.1", resolve))
    upstream = seller
    const address = seller.address()
    upstreamHost = typeof address === "object" && address !== null ? `127.0.0.1:${address.port}` : ""
    // QUICKSTART_GATEWAY_ROOT runs the pages against another checkout's bundle (startGateway starts the one under the working folder).
    const root = process.env["QUICKSTART_GATEWAY_ROOT"]
    const here = process.cwd()
    if (root !== undefined) process.chdir(root)
    gateway = await startGateway({ DATA_DIR: "memory://", UPSTREAM_ALLOW_HOSTS: upstreamHost, LOG_LEVEL: "Warn" }).finally(() => process.chdir(here))
  }, 120_000)

  afterAll(async () => {
    await gateway?.stop()
    upstream?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("the seller registers, activates and sees the 402", async () => {
    const [install, signin, register, activate, unpaid, payments] = await runQuickstart("quickstart-seller.md", dir, gatewayHost(), upstreamHost)
    assert.strictEqual(install, "")
    assert.match(signin ?? "", /^signed in as 0x[0-9a-f]{64}\n$/)
    assert.match(register ?? "", /^svc_\S+\n$/)
    assert.strictEqual(activate, "live\n")
    assert.strictEqual(unpaid, "402\n")
    assert.deepStrictEqual(JSON.parse(payments ?? "").payments, [])
  }, 300_000)

  it("the owner funds a spend account, grants the agent a budget, hands over the manifest, pauses and resumes", async () => {
    const [, signin, fund, grant, manifest, pauseResume] = await runQuickstart("quickstart-owner.md", dir, gatewayHost(), upstreamHost)
    assert.match(signin ?? "", /^signed in as 0x/)
    assert.match(fund ?? "", /^deposited in \S+\nspend account balance: 1000000\n$/)
    assert.match(grant ?? "", /^grant \S+: signer active\n$/)
    assert.match(manifest ?? "", /^manifest for 0x[0-9a-f]{64}: 1 grant\(s\), 0x0*2::sui::SUI\n$/)
    assert.strictEqual(pauseResume, "signer paused\nsigner active\n")
  }, 300_000)

  it("the agent finds the service, gets the 402, pays sign-first, upfront and with the typed client; the seller sees the payments", async () => {
    const packages = join(dir, "gateway-packages")
    mkdirSync(packages)
    await packSdk(packages)
    const [folder, found, offers, signFirst, upfront, install, typed] = await runQuickstart("quickstart-agent.md", dir, gatewayHost(), upstreamHost, {
      GATEWAY_PACKAGES: packages
    })
    assert.strictEqual(folder, "agent.key\nmanifest.json\nservice.id\n")
    const serviceId = readFileSync(join(dir, "service.id"), "utf8").trim()
    assert.strictEqual(found, `${serviceId} Weather Forecast 25000 0x2::sui::SUI\n`)
    assert.match(offers ?? "", /^exact 25000 \S+ 0x[0-9a-f]{64}\nsui-delegate 25000 \S+ 0x[0-9a-f]{64}\nsui-session 25000 /)
    for (const paid of [signFirst, upfront, typed]) assert.match(paid ?? "", /^200 \{"forecast":"sunny"\} paid in \w{32,}\n$/)
    assert.strictEqual(install, "")
    assert.deepStrictEqual(calls, ["/forecast", "/forecast", "/forecast"])
    // The seller's quickstart ends by listing its payments again once an agent has paid.
    const seller = await run("curl", ["-s", `${gateway?.url ?? ""}/v1/services/${serviceId}/payments`, "-H", `Authorization: Bearer ${readFileSync(join(dir, "seller.token"), "utf8")}`])
    assert.strictEqual(JSON.parse(seller.stdout).payments.length, 3)
  }, 600_000)
})
