import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { readdirSync, readFileSync, readlinkSync } from "node:fs"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type RunningServer, startGateway } from "../../../../scripts/bench/ServerProcess.ts"
import { buildServer } from "../../build.ts"

/** The TCP ports a process listens on (Linux): its sockets' inodes, found among the kernel's listening sockets. */
const listeningPorts = (pid: number) => {
  const inodes = new Set(readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
      return inode === undefined ? [] : [inode]
    } catch {
      return [] // closed while listed
    }
  }))
  return ["tcp", "tcp6"].flatMap((table) =>
    readFileSync(`/proc/${pid}/net/${table}`, "utf8").split("\n").slice(1).flatMap((line) => {
      const fields = line.trim().split(/\s+/)
      const [local, state, inode] = [fields[1], fields[3], fields[9]]
      // State 0A is LISTEN; the local address ends in the port, in hex.
      return state === "0A" && inode !== undefined && inodes.has(inode) && local !== undefined ? [parseInt(local.split(":")[1] ?? "", 16)] : []
    })
  )
}

/**
 * `npm start` runs the bundle `build.ts` writes, not the source the other
 * tests load: this builds it and starts it as `npm start` does (the script's
 * environment and Node flags), so a file the bundle cannot find (the console,
 * PGlite's cluster template), a module esbuild cannot bundle or a layer that
 * only fails at start-up fails here.
 */
describe("the bundle npm start runs", () => {
  let gateway: RunningServer | undefined
  const url = () => {
    if (gateway === undefined) throw new Error("the gateway did not start")
    return gateway.url
  }

  beforeAll(async () => {
    await buildServer()
    gateway = await startGateway({ DATA_DIR: "memory://" })
  }, 120_000)
  afterAll(() => gateway?.stop())

  it("serves health with the store and the chain up, the console, the catalog and MCP", async () => {
    const health = await fetch(`${url()}/health`).then((r) => r.json())
    assert.deepStrictEqual(health, { ok: true, store: "up", chain: "up", network: "sui:localnet" })

    const page = await fetch(`${url()}/`)
    assert.strictEqual(page.status, 200)
    const html = await page.text()
    const script = /<script[^>]+src="(\/console\/[^"]+\.js)"/.exec(html)?.[1]
    assert.isDefined(script)
    const asset = await fetch(`${url()}${script}`)
    assert.strictEqual(asset.status, 200)
    assert.isAbove((await asset.arrayBuffer()).byteLength, 1000)

    const services = await fetch(`${url()}/v1/services`)
    assert.strictEqual(services.status, 200)
    assert.deepStrictEqual((await services.json() as { services: ReadonlyArray<unknown> }).services, [])

    const mcp = new Client({ name: "bundle-test", version: "1.0.0" })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url()}/mcp`)))
    const tools = await mcp.listTools()
    await mcp.close()
    assert.isAbove(tools.tools.length, 0)
  })

  it("listens on its HTTP port and nothing else: the embedded store has no address a local process could reach", () => {
    const pid = gateway?.process.pid
    if (pid === undefined) return assert.fail("the gateway did not start")
    assert.deepStrictEqual(listeningPorts(pid), [Number(new URL(url()).port)])
  })
})
