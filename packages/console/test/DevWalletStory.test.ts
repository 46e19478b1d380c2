import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { makeApiClient } from "@gateway/client"
import { ServiceId } from "@gateway/domain/Ids"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { browserOf, connectDevWalletAndSignIn, freshOutput, plainPage, run, step } from "./support/Browser.ts"

const Env = paidCallEnv()

layer(Env, { timeout: 240_000, excludeTestServices: true })("the development wallet in Chromium (local mode, no extension)", (it) => {
  it.effect("an owner connects it, funds a spend account, creates, pauses and revokes a signer; as a seller registers a service listed by the API after a reload", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const upstream = yield* Upstream
      const ledger = yield* TestLedger
      const api = yield* makeApiClient(baseUrl)
      const browser = yield* browserOf
      const { page, problems } = yield* run(() => plainPage(browser))
      const story = "dev-wallet"
      yield* run(() => freshOutput(story))

      // The first connect makes the key in this browser and funds it from the local faucet.
      yield* run(() => step(page, story, "01-signed-in", () => connectDevWalletAndSignIn(page, baseUrl)))
      const address = (yield* run(() => page.locator("#who").innerText())).replace("Signed in as ", "").trim()
      const key = yield* run(() => page.evaluate(() => localStorage.getItem("console.devWallet.secretKey")))
      assert.isTrue(key !== null && key.startsWith("suiprivkey"))
      const { balance } = yield* Effect.promise(() => ledger.client.core.getBalance({ owner: address }))
      assert.isTrue(BigInt(balance.balance) > 0n, "funded from the local faucet")

      yield* run(() => step(page, story, "02-funded", async () => {
        await page.locator("#fund-amount").fill("0.5")
        await page.locator("#fund").click()
        await page.locator("#spend-accounts tbody tr .balance", { hasText: "0.5 SUI (500000000 atomic)" }).waitFor()
      }))
      yield* run(() => step(page, story, "03-active", async () => {
        await page.locator("#agent-address").fill(new Ed25519Keypair().toSuiAddress())
        await page.locator("#signer-name").fill("dev agent")
        await page.locator("#scope-1-budget").fill("0.01")
        await page.locator("#scope-1-per-payment").fill("0.001")
        await page.locator("#review-signer").click()
        await page.locator("#create-signer").click()
        await page.locator("article.signer header .status", { hasText: "active" }).waitFor()
      }))
      for (const [action, status, name] of [["Pause", "paused", "04-paused"], ["Revoke", "revoked", "05-revoked"]] as const) {
        yield* run(() => step(page, story, name, async () => {
          await page.locator("article.signer").getByRole("button", { name: action }).click()
          await page.locator("article.signer header .status").filter({ hasText: new RegExp(`^${status}$`) }).waitFor()
        }))
      }

      // The same wallet as a seller: pay-to is offered as its own address.
      yield* run(() => step(page, story, "06-registered", async () => {
        await page.getByRole("tab", { name: "Seller: paid services" }).click()
        assert.strictEqual(await page.locator("#svc-pay-to").inputValue(), address)
        await page.locator("#svc-name").fill("Dev answers")
        await page.locator("#svc-description").fill("Answers from a seller without a wallet extension")
        await page.locator("#svc-path").fill("/answer")
        await page.locator("#svc-price").fill("0.0001")
        await page.locator("#svc-upstream").fill(upstream.url)
        await page.locator("#svc-save").click()
        await page.locator("article.service header .status", { hasText: "draft" }).waitFor()
      }))
      const serviceId = (yield* run(() => page.locator("article.service").first().getAttribute("data-service"))) ?? ""
      yield* run(() => step(page, story, "07-live", async () => {
        await page.locator(`article[data-service="${serviceId}"]`).getByRole("button", { name: "Activate" }).click()
        await page.locator(`article[data-service="${serviceId}"] header .status`, { hasText: "live" }).waitFor()
      }))
      assert.strictEqual((yield* api.services.get({ params: { id: ServiceId.make(serviceId) } })).payTo, address)

      // After a reload (the session lives in memory only) dApp Kit reconnects the wallet, whose key this browser kept, and the services come from the API.
      yield* run(() => step(page, story, "08-reloaded", async () => {
        await page.reload()
        await page.locator("#who", { hasText: "not signed in" }).waitFor()
        await page.locator("#sign-in").click()
        await page.locator("#who", { hasText: "Signed in as" }).waitFor()
        await page.getByRole("tab", { name: "Seller: paid services" }).click()
        await page.locator(`article[data-service="${serviceId}"] header .status`, { hasText: "live" }).waitFor()
      }))
      assert.strictEqual((yield* run(() => page.locator("#who").innerText())).replace("Signed in as ", "").trim(), address)
      assert.deepStrictEqual(problems, [])
    }))
})
