import { createHash } from "node:crypto"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { inlineScripts } from "../../src/http/DocsPage.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const directives = (csp: string) => new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name = "", ...values]) => [name, values]))

/**
 * Threat: a script injected into the API reference page (through the OpenAPI
 * document it inlines, or a compromised bundle) running with the origin's
 * authority, or the page framed for clickjacking. The page now answers under a
 * CSP allowing exactly its own two inline scripts; it had none before.
 */
describe("security: /docs answers under a Content-Security-Policy", () => {
  layer(layerTestServer(), { excludeTestServices: true })((it) => {
    it.effect("scripts only by the hashes of the page's own inline scripts; nothing from elsewhere; never framed", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const response = yield* Effect.promise(() => fetch(`${baseUrl}/docs`))
        assert.strictEqual(response.status, 200)
        const html = yield* Effect.promise(() => response.text())
        const csp = directives(response.headers.get("content-security-policy") ?? "")
        assert.deepStrictEqual(csp.get("default-src"), ["'none'"])
        assert.deepStrictEqual(csp.get("connect-src"), ["'self'"])
        assert.deepStrictEqual(csp.get("frame-ancestors"), ["'none'"])
        assert.deepStrictEqual(csp.get("base-uri"), ["'none'"])
        assert.deepStrictEqual(csp.get("form-action"), ["'none'"])
        const scripts = inlineScripts(html)
        // Scalar's bundle and the call that renders the OpenAPI document.
        assert.lengthOf(scripts, 2)
        assert.include(scripts[1] ?? "", "createApiReference")
        assert.sameMembers(csp.get("script-src") ?? [], scripts.map((s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`))
        // Scalar's default fonts come from its CDN; the page asks for none.
        assert.include(scripts[1] ?? "", `"withDefaultFonts":false`)
      }))
  })

  it("inline scripts are cut where the browser cuts them; scripts with src are not inline", () => {
    const page = `<script src="/a.js"></script><SCRIPT type="module">let a = "</scripts>"</SCRIPT ><script>b()</script/><script id="x">c</script>`
    assert.deepStrictEqual(inlineScripts(page), [`let a = "</scripts>"`, "b()", "c"])
  })
})
