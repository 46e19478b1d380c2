import { readdir, readFile } from "node:fs/promises"
import { extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { NotFound, Unavailable } from "@gateway/domain/Errors"
import { AppConfig } from "../Config.ts"
import { errorResponse } from "../httpShared/ErrorBodies.ts"

/** Where `npm run build -w @gateway/console` writes the page: found through the package, so the bundled server finds it too. */
export const CONSOLE_DIST = fileURLToPath(new URL("./dist/", import.meta.resolve("@gateway/console/package.json")))

/**
 * Self only: the page's one script and one stylesheet, API calls and, in local
 * mode, the chain (`/sui`) on this origin; wallet icons arrive as data: URLs.
 * In live mode the page reads the chain from the configured full node, whose
 * origin alone is added to `connect-src`.
 */
export const consoleCsp = (chainOrigin: string | undefined) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    chainOrigin === undefined ? "connect-src 'self'" : `connect-src 'self' ${chainOrigin}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8"
}

interface Asset {
  readonly contentType: string
  readonly cacheControl: string
  readonly identity: Uint8Array
  readonly br: Uint8Array
  readonly gzip: Uint8Array
}

const readAsset = async (file: string, cacheControl: string): Promise<Asset> => {
  const [identity, br, gzip] = await Promise.all([readFile(file), readFile(`${file}.br`), readFile(`${file}.gz`)])
  return { contentType: contentTypes[extname(file)] ?? "application/octet-stream", cacheControl, identity, br, gzip }
}

/**
 * The page's HTML as this gateway serves it, compressed again once: in live
 * mode naming the full node it reads the chain from; in local mode (its own
 * LocalLedger) saying so, which alone lets the page offer its development
 * wallet. The template says "live", so only this rewrite can turn it on, and
 * only when no SUI_GRPC_URL is set.
 */
const pageFor = async (file: string, chainUrl: string | undefined): Promise<Asset> => {
  const template = await readFile(file, "utf8")
  const html = chainUrl === undefined
    ? template.replace('<meta name="gateway-mode" content="live">', '<meta name="gateway-mode" content="local">')
    : template.replace('<meta name="sui-grpc-url" content="">', `<meta name="sui-grpc-url" content="${encodeURI(chainUrl)}">`)
  const identity = new TextEncoder().encode(html)
  return { contentType: contentTypes[".html"] ?? "", cacheControl: "no-cache", identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) }
}

/** The built page by URL path: `/` and every `/console/<hashed name>`. */
const loadDist = async (dist: string, chainUrl: string | undefined): Promise<ReadonlyMap<string, Asset>> => {
  const index = join(dist, "index.html")
  const assets = new Map<string, Asset>([["/", await pageFor(index, chainUrl)]])
  for (const name of await readdir(join(dist, "console"))) {
    if (contentTypes[extname(name)] === undefined) continue
    // Names carry their content hash, so a cached copy is never stale.
    assets.set(`/console/${name}`, await readAsset(join(dist, "console", name), "public, max-age=31536000, immutable"))
  }
  return assets
}

const notBuilt = new Unavailable({
  message: "The console is not built: run `npm run build -w @gateway/console` (npm install runs it), then reload",
  reason: "console_not_built"
})

const respond = (asset: Asset, acceptEncoding: string, csp: string) => {
  const [body, encoding] = /\bbr\b/.test(acceptEncoding)
    ? [asset.br, "br"]
    : /\bgzip\b/.test(acceptEncoding)
    ? [asset.gzip, "gzip"]
    : [asset.identity, undefined]
  return HttpServerResponse.uint8Array(body, {
    contentType: asset.contentType,
    headers: {
      "cache-control": asset.cacheControl,
      "content-security-policy": csp,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      vary: "accept-encoding",
      ...(encoding === undefined ? {} : { "content-encoding": encoding })
    }
  })
}

/**
 * The owner and seller console: `/` (its HTML) and `/console/*` (its hashed
 * script and stylesheet), precompressed at build time. The build in `dist` is
 * read on first use and kept; until it exists `/` answers 503 saying how to
 * build it. `chainUrl` is the full node of live mode (none: the page reads
 * the chain at this origin's `/sui`).
 */
export const consoleRoutes = (dist: string, chainUrl: Option.Option<string>) => Layer.unwrap(Effect.sync(() => {
  const url = Option.getOrUndefined(chainUrl)
  const csp = consoleCsp(url === undefined ? undefined : new URL(url).origin)
  let assets: ReadonlyMap<string, Asset> | undefined
  const serve = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (assets === undefined) {
      const loaded = yield* Effect.tryPromise(() => loadDist(dist, url)).pipe(Effect.option)
      if (loaded._tag === "None") return errorResponse(notBuilt)
      assets = loaded.value
    }
    const path = new URL(request.url, "http://console").pathname
    const asset = assets.get(path)
    if (asset === undefined) return errorResponse(new NotFound({ message: "No such console file", reason: "unknown_console_asset" }))
    return respond(asset, request.headers["accept-encoding"] ?? "", csp)
  })
  return Layer.mergeAll(HttpRouter.add("GET", "/", serve), HttpRouter.add("GET", "/console/*", serve))
}))

export const ConsoleRoutes = Layer.unwrap(AppConfig.useSync((config) => consoleRoutes(CONSOLE_DIST, config.suiGrpcUrl)))
