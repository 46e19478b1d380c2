import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeAgent } from "@gateway/client/AgentSdk"
import { makeApiClient } from "@gateway/client"
import { ServiceId } from "@gateway/domain/Ids"
import { fundedOwner, grantedAgent, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { browserOf, connectAndSignIn, freshOutput, run, step, testKey, walletPage } from "./support/Browser.ts"

const Env = paidCallEnv()

layer(Env, { timeout: 240_000, excludeTestServices: true })("the seller's console in Chromium", (it) => {
  it.effect("register a service, activate it, edit it (settled before forwarding), activate the edit, and see its revisions and paid calls", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const upstream = yield* Upstream
      const api = yield* makeApiClient(baseUrl)
      const ledger = yield* TestLedger
      const browser = yield* browserOf
      const { seed, keypair: seller } = testKey("seller")
      const { page, problems } = yield* run(() => walletPage(browser, seed))
      const story = "seller"
      yield* run(() => freshOutput(story))

      yield* run(() => step(page, story, "01-signed-in", async () => {
        await connectAndSignIn(page, baseUrl)
        await page.getByRole("tab", { name: "Seller: paid services" }).click()
      }))
      yield* run(() => step(page, story, "02-registered", async () => {
        await page.locator("#svc-name").fill("Weather now")
        await page.locator("#svc-description").fill("The weather at a place, now")
        await page.locator("#svc-path").fill("/weather")
        await page.locator("#svc-price").fill("0.0005")
        await page.locator("#svc-pay-to").fill(seller.toSuiAddress())
        await page.locator("#svc-upstream").fill(upstream.url)
        await page.locator("#svc-save").click()
        await page.locator("article.service header .status", { hasText: "draft" }).waitFor()
      }))
      const serviceId = (yield* run(() => page.locator("article.service").first().getAttribute("data-service"))) ?? ""
      const card = page.locator(`article[data-service="${serviceId}"]`)
      yield* run(() => card.getByText("0.0005 SUI (500000 atomic)").waitFor())
      assert.strictEqual(yield* run(() => card.locator(".settlement").innerText()), "after the answer (default)")

      yield* run(() => step(page, story, "03-live", async () => {
        await card.getByRole("button", { name: "Activate" }).click()
        await card.locator("header .status", { hasText: "live" }).waitFor()
      }))
      const liveRevision = (yield* run(() => card.locator(".revisions").innerText()))

      yield* run(() => step(page, story, "04-edited", async () => {
        await card.getByRole("button", { name: "Edit" }).click()
        assert.strictEqual(await page.locator("#svc-price").inputValue(), "0.0005")
        assert.strictEqual(await page.locator("#svc-settlement").inputValue(), "after_answer")
        await page.locator("#svc-price").fill("0.0004")
        await page.locator("#svc-settlement").selectOption({ label: "before forwarding (calls with side effects)" })
        await page.locator("#svc-save").click()
        await card.locator(".revisions", { hasText: "awaiting activation" }).waitFor()
      }))
      yield* run(() => step(page, story, "05-edit-live", async () => {
        await card.getByRole("button", { name: "Activate" }).click()
        await card.getByText("0.0004 SUI (400000 atomic)").waitFor()
        await card.locator(".revisions", { hasText: /^live revision \d+$/ }).waitFor()
        await card.locator(".settlement", { hasText: "before forwarding (calls with side effects)" }).waitFor()
      }))
      assert.notStrictEqual(yield* run(() => card.locator(".revisions").innerText()), liveRevision)

      // An agent pays for one call (upfront: the service settles before forwarding); the seller sees it among its paid calls.
      const { owner, asOwner } = yield* fundedOwner(api)
      const { agentKey, manifest } = yield* grantedAgent(api, owner, asOwner, { key: "seller-story", budget: 10_000_000n, perPayment: 1_000_000n })
      const entry = yield* api.services.get({ params: { id: ServiceId.make(serviceId) } })
      assert.strictEqual(entry.settlement, "before_forwarding")
      const paid = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client }).fetchPaid(entry.resourceUrl)
      assert.strictEqual(paid.response.status, 200)
      yield* run(() => step(page, story, "06-paid-calls", async () => {
        await page.locator("#svc-refresh").click()
        const payment = card.locator(".payments tbody tr", { hasText: "0.0004 SUI (400000 atomic)" })
        await payment.locator(".outcome", { hasText: "forwarded" }).waitFor()
        await payment.getByText(paid.digest ?? "no digest").waitFor()
      }))

      assert.deepStrictEqual(problems, [])
    }))
})
