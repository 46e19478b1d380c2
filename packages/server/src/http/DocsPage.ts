import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { OpenApi } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"

/**
 * The inline scripts of an HTML page as the browser's tokenizer cuts them: the
 * text after each `<script …>` without `src`, up to the first `</script`
 * followed by a space, `/` or `>` (any case).
 */
export const inlineScripts = (html: string): ReadonlyArray<string> => {
  const scripts: Array<string> = []
  const opening = /<script(\s[^>]*)?>/gi
  const closing = /<\/script[\s/>]/gi
  for (let open = opening.exec(html); open !== null; open = opening.exec(html)) {
    closing.lastIndex = opening.lastIndex
    const close = closing.exec(html)
    if (close === null) break
    if (!/\ssrc\s*=/i.test(open[1] ?? "")) scripts.push(html.slice(opening.lastIndex, close.index))
    opening.lastIndex = close.index
  }
  return scripts
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

/**
 * The policy for Scalar's page, which inlines its whole bundle and the
 * OpenAPI document in two scripts: those scripts by hash and nothing else
 * (no eval: zod inside the bundle probes `new Function` and falls back);
 * styles inline, as Scalar's components inject `<style>` elements and
 * `style` attributes at run time; images from here or `data:`; requests
 * ("Test Request") to this origin only; no frames, no base, no forms, never
 * framed.
 */
export const docsCsp = (html: string) =>
  [
    "default-src 'none'",
    `script-src ${inlineScripts(html).map(sha256).join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/** `JSON.stringify` safe inside a `<script>`: no `<` to end it, no line terminators JavaScript reads as newlines. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/**
 * Scalar's bundle as effect ships it, loaded when the page is first asked
 * for: `HttpApiScalar.layer` loads its 3 MB at start-up and keeps it twice
 * (the module's source and the string), in every replica, whether anyone
 * reads the page or not. The module sits beside `HttpApiScalar`, which effect
 * exports; effect's package map does not expose `internal/` by name.
 */
const loadScalar = Effect.promise(async () => {
  const module: { readonly javascript?: unknown } = await import(new URL("./internal/httpApiScalar.js", import.meta.resolve("effect/http-api/HttpApiScalar")).href)
  if (typeof module.javascript !== "string") throw new Error("effect's Scalar bundle has no `javascript` export")
  return module.javascript
})

/**
 * The page effect's `HttpApiScalar` renders: Scalar's bundle, then the call
 * that renders the OpenAPI document. Scalar's default fonts would be fetched
 * from its CDN on every visit; the page uses the system's fonts instead, so it
 * reaches no third party.
 */
export const docsHtml = (scalar: string) => {
  const spec = OpenApi.fromApi(Api)
  const config = { _integration: "html", withDefaultFonts: false }
  return `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(spec.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="api-reference-container"></div>
    <script>${scalar}</script>
    <script>
      window.Scalar.createApiReference(document.getElementById('api-reference-container'), {
        ...${scriptJson(config)},
        content: ${scriptJson(spec)}
      })
    </script>
  </body>
</html>`
}

/** The page as sent, and its policy: worked out once, as the page never changes. */
const docsAnswer = (html: string) => ({ body: new TextEncoder().encode(html), csp: docsCsp(html) })

/**
 * The API reference at `/docs` under its own CSP, built at its first request
 * and kept: the page is made from the API definition alone, so the hashes
 * cover no caller's input.
 */
export const DocsPage = Layer.unwrap(
  Effect.map(Effect.cached(Effect.map(loadScalar, (scalar) => docsAnswer(docsHtml(scalar)))), (answer) =>
    HttpRouter.add(
      "GET",
      "/docs",
      Effect.map(answer, ({ body, csp }) =>
        HttpServerResponse.uint8Array(body, { contentType: "text/html; charset=utf-8", headers: { "content-security-policy": csp } }))
    ))
)
