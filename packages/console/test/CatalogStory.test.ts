import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { liveService, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { browserOf, freshOutput, plainPage, run, step } from "./support/Browser.ts"

const Env = paidCallEnv()

layer(Env, { timeout: 240_000, excludeTestServices: true })("the public catalog in Chromium, with no wallet at all", (it) => {
  it.effect("says there is no service yet, then lists the live ones, searches them and opens one's terms and how to pay", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const upstream = yield* Upstream
      const api = yield* makeApiClient(baseUrl)
      const browser = yield* browserOf
      const { page, problems } = yield* run(() => plainPage(browser))
      const story = "catalog"
      yield* run(() => freshOutput(story))

      // Nothing is live yet: the view says so rather than show anything made up.
      yield* run(() => step(page, story, "01-empty", async () => {
        await page.goto(baseUrl)
        await page.locator("#catalog-count", { hasText: "No services live yet." }).waitFor()
      }))
      assert.strictEqual(yield* run(() => page.locator("#catalog-list li").count()), 0)
      // The catalog comes before the wallet controls: it is what a visitor sees first.
      const catalogFirst = yield* run(() =>
        page.evaluate(() => {
          const catalog = document.getElementById("catalog")
          const session = document.getElementById("session")
          return catalog !== null && session !== null && (catalog.compareDocumentPosition(session) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
        }))
      assert.isTrue(catalogFirst)

      const { entry: weather } = yield* liveService(api, { price: 500_000n, upstreamUrl: upstream.url })
      const { entry: other } = yield* liveService(api, { price: 2_000n, upstreamUrl: upstream.url })
      yield* run(() => step(page, story, "02-listed", async () => {
        await page.reload()
        await page.locator("#catalog-count", { hasText: "2 services live." }).waitFor()
        await page.locator(`#catalog-list li[data-service="${weather.id}"]`, { hasText: "0.0005 SUI (500000 atomic)" }).waitFor()
      }))

      // A search no service matches, then one that matches both (their descriptions say "the answer").
      yield* run(() => step(page, story, "03-searched", async () => {
        await page.locator("#catalog-q").fill("no such thing")
        await page.locator("#catalog-search").click()
        await page.locator("#catalog-count", { hasText: "No services matching “no such thing” yet." }).waitFor()
        await page.locator("#catalog-q").fill("answer")
        await page.locator("#catalog-search").click()
        await page.locator("#catalog-count", { hasText: "2 services matching “answer”." }).waitFor()
      }))

      yield* run(() => step(page, story, "04-service-page", async () => {
        await page.locator(`#catalog-list li[data-service="${other.id}"]`).getByRole("button", { name: "Open" }).click()
        const servicePage = page.locator(`#service-page article[data-service="${other.id}"]`)
        await servicePage.waitFor()
        await servicePage.getByText(`GET ${other.resourceUrl}`).first().waitFor()
        await servicePage.getByText("0.000002 SUI (2000 atomic)").waitFor()
        await servicePage.getByText(other.payTo).waitFor()
        await servicePage.getByRole("link", { name: "SKILL.md" }).waitFor()
        await servicePage.getByRole("link", { name: "API reference" }).waitFor()
      }))
      assert.strictEqual(new URL(page.url()).hash, `#/services/${other.id}`)
      assert.strictEqual(yield* run(() => page.locator("#service-page").getByRole("link", { name: "SKILL.md" }).getAttribute("href")), "/SKILL.md")
      const markdown = yield* run(() => page.locator("#service-page").getByRole("link", { name: "these terms as Markdown" }).getAttribute("href"))
      assert.strictEqual(markdown, `/v1/services/${other.id}.md`)

      // The page's address opens the same service page on its own.
      yield* run(() => step(page, story, "05-linked", async () => {
        await page.goto(`${baseUrl}/#/services/${weather.id}`)
        await page.locator(`#service-page article[data-service="${weather.id}"]`).waitFor()
      }))

      // The gateway runs its own ledger here: the development wallet is offered, clearly labelled.
      yield* run(() => page.locator("#dev-wallet h2", { hasText: "Development wallet — local mode only, keys kept in this browser" }).waitFor())
      assert.deepStrictEqual(problems, [])
    }))
})
