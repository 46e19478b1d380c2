import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiScalar } from "effect/http-api"
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

const decoder = new TextDecoder()

/** Scalar answers with the same bytes every time: the policy is worked out once per body. */
const policies = new WeakMap<Uint8Array, string>()

const policyFor = (body: Uint8Array) => {
  const known = policies.get(body)
  if (known !== undefined) return known
  const policy = docsCsp(decoder.decode(body))
  policies.set(body, policy)
  return policy
}

/** For any other answer (none is expected): nothing runs, nothing loads. The page is built from the API definition alone, so the hashes cover no caller's input. */
const NOTHING = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const withDocsCsp = HttpRouter.middleware((httpEffect) =>
  Effect.map(httpEffect, (response) =>
    HttpServerResponse.setHeader(response, "content-security-policy", response.body._tag === "Uint8Array" ? policyFor(response.body.body) : NOTHING)
  )
).layer

/**
 * The API reference at `/docs` (Scalar, inlined by effect) under its own CSP.
 * Scalar's default fonts would be fetched from its CDN on every visit; the
 * page uses the system's fonts instead, so it reaches no third party.
 */
export const DocsPage = HttpApiScalar.layer(Api, { path: "/docs", scalar: { withDefaultFonts: false } }).pipe(Layer.provide(withDocsCsp))
