import { mkdtemp, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { HttpRouter } from "effect/http"
import { CONSOLE_DIST, consoleRoutes } from "../../server/src/console/ConsoleRoutes.ts"
import { ensureConsoleBuilt } from "./support/Browser.ts"

const serve = (dist: string, chainUrl: Option.Option<string> = Option.none()) =>
  HttpRouter.toWebHandler(consoleRoutes(dist, chainUrl), { disableLogger: true })

describe("the console's routes", () => {
  let built: ReturnType<typeof serve>
  beforeAll(async () => {
    await ensureConsoleBuilt()
    built = serve(CONSOLE_DIST)
  })
  afterAll(() => built.dispose())

  const get = (path: string, acceptEncoding?: string) =>
    built.handler(new Request(`http://gateway${path}`, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }))

  it("serves the page uncached, under a self-only CSP, brotli to browsers that accept it", async () => {
    const response = await get("/", "gzip, deflate, br")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(response.headers.get("cache-control")).toBe("no-cache")
    expect(response.headers.get("content-encoding")).toBe("br")
    expect(response.headers.get("vary")).toBe("accept-encoding")
    const csp = response.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self';")
    expect(csp).not.toContain("unsafe")
    const html = brotliDecompressSync(new Uint8Array(await response.arrayBuffer())).toString("utf8")
    expect(html).toMatch(/<script type="module" src="\/console\/main-[A-Z0-9]+\.js">/)
    expect(html).toMatch(/<link rel="stylesheet" href="\/console\/console-[A-Z0-9]+\.css">/)
  })

  it("serves the hashed script and stylesheet as immutable, gzip or plain", async () => {
    const html = await (await get("/")).text()
    const script = /src="(\/console\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1] ?? ""
    const style = /href="(\/console\/console-[A-Z0-9]+\.css)"/.exec(html)?.[1] ?? ""
    const gzipped = await get(script, "gzip")
    expect(gzipped.status).toBe(200)
    expect(gzipped.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(gzipped.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(gzipped.headers.get("content-encoding")).toBe("gzip")
    const plainBytes = await readFile(join(CONSOLE_DIST, script))
    expect(gunzipSync(new Uint8Array(await gzipped.arrayBuffer()))).toEqual(plainBytes)
    const plain = await get(style)
    expect(plain.headers.get("content-type")).toBe("text/css; charset=utf-8")
    expect(plain.headers.get("content-encoding")).toBeNull()
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(new Uint8Array(await readFile(join(CONSOLE_DIST, style))))
  })

  it("in live mode names the full node in the page and lets the page reach that origin only", async () => {
    const live = serve(CONSOLE_DIST, Option.some("https://fullnode.testnet.sui.io:443"))
    try {
      const response = await live.handler(new Request("http://gateway/", { headers: { "accept-encoding": "gzip" } }))
      expect(response.headers.get("content-security-policy")).toContain("connect-src 'self' https://fullnode.testnet.sui.io;")
      const html = gunzipSync(new Uint8Array(await response.arrayBuffer())).toString("utf8")
      expect(html).toContain('<meta name="sui-grpc-url" content="https://fullnode.testnet.sui.io:443">')
    } finally {
      await live.dispose()
    }
  })

  it("says local mode in the page only without a full node, so the development wallet is never offered on a live network", async () => {
    const local = await (await get("/")).text()
    expect(local).toContain('<meta name="gateway-mode" content="local">')
    expect(local).toContain('<meta name="sui-grpc-url" content="">')
    const live = serve(CONSOLE_DIST, Option.some("https://fullnode.mainnet.sui.io:443"))
    try {
      const html = await (await live.handler(new Request("http://gateway/"))).text()
      expect(html).toContain('<meta name="gateway-mode" content="live">')
      expect(html).not.toContain('content="local"')
    } finally {
      await live.dispose()
    }
    // The template itself says live: a page served without the gateway's rewrite offers no development wallet.
    expect(await readFile(join(CONSOLE_DIST, "index.html"), "utf8")).toContain('<meta name="gateway-mode" content="live">')
  })

  it("answers NOT_FOUND for a file the build does not have", async () => {
    const response = await get("/console/nothing-here.js")
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ ok: false, code: "NOT_FOUND" })
  })

  it("answers 503 saying how to build the console when there is no build", async () => {
    const missing = serve(await mkdtemp(join(tmpdir(), "console-missing-")))
    try {
      const response = await missing.handler(new Request("http://gateway/"))
      expect(response.status).toBe(503)
      const body = await response.json()
      expect(body).toMatchObject({ ok: false, code: "UNAVAILABLE", reason: "console_not_built" })
      expect(body.message).toContain("npm run build -w @gateway/console")
    } finally {
      await missing.dispose()
    }
  })
})
