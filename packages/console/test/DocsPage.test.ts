import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { BaseUrl, layerTestServer } from "../../server/test/support/TestServer.ts"
import { browserOf, run } from "./support/Browser.ts"

/** What a `securitypolicyviolation` event says, kept by the page for the test to read. */
interface Violation {
  readonly directive: string
  readonly blocked: string
  readonly source: string
}

/**
 * Zod, inside Scalar's bundle, probes whether `new Function("")` is allowed and
 * falls back when it is not: Chromium reports the refused probe. The page
 * works without eval; any other refusal is a policy that breaks the page.
 */
const isEvalProbe = (violation: Violation) => violation.directive === "script-src" && violation.blocked === "eval"

layer(layerTestServer(), { timeout: 120_000, excludeTestServices: true })("the API reference at /docs in Chromium", (it) => {
  it.effect("renders the operations and sends a test request under its CSP, with nothing refused but zod's eval probe", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const browser = yield* browserOf
      const page = yield* run(() => browser.newPage())
      const outside: Array<string> = []
      page.on("request", (request) => {
        if (!request.url().startsWith(baseUrl)) outside.push(request.url())
      })
      yield* run(() =>
        page.addInitScript(() => {
          const seen: Array<Violation> = []
          Object.assign(window, { cspViolations: seen })
          document.addEventListener("securitypolicyviolation", (event) =>
            seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}` }))
        })
      )
      const response = yield* run(() => page.goto(`${baseUrl}/docs`))
      assert.include(response?.headers()["content-security-policy"] ?? "", "default-src 'none'")

      // Scalar rendered the document: the sidebar lists the API's groups and their operations.
      yield* run(() => page.getByText("delegatedSigners").first().waitFor())
      // "Test Request" sends a real request to this origin (connect-src 'self') and shows the answer.
      yield* run(async () => {
        await page.getByRole("button", { name: /Test Request/i }).first().click()
        await page.getByRole("button", { name: /^Send/i }).first().click()
        await page.getByText("200 OK").first().waitFor()
      })

      const violations = yield* run(() => page.evaluate(() => (window as Window & { cspViolations?: Array<Violation> }).cspViolations ?? []))
      assert.deepStrictEqual(violations.filter((v) => !isEvalProbe(v)), [])
      assert.deepStrictEqual(outside, [])
    }))
})
