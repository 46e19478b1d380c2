import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Page } from "playwright-core"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { makeAgent } from "@gateway/client/AgentSdk"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { randomBytes } from "node:crypto"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { liveService, paidCallEnv, SUI } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { browserOf, connectAndSignIn, freshOutput, OUTPUT, run, step, testKey, walletLog, walletPage } from "./support/Browser.ts"

/** A second coin with no metadata on chain, so its amounts are typed in atomic units. */
const TEST_COIN = `0x${randomBytes(32).toString("hex")}::test_coin::TEST`
const Env = paidCallEnv({ supportedAssets: [SUI, TEST_COIN] })

/** A spend account's row, by the coin's name (the row holds the chain's normalized coin type). */
const accountRow = (page: Page, coin: string) => page.locator("#spend-accounts tbody tr").filter({ has: page.getByRole("cell", { name: coin, exact: true }) })

const statusOf = (page: Page, signer: string) => page.locator(`article[data-signer="${signer}"] header .status`)

layer(Env, { timeout: 240_000, excludeTestServices: true })("the owner's console in Chromium", (it) => {
  it.effect("connect, sign in, fund two coins, withdraw, create a two-asset signer, watch it pay, pause, resume, revoke, sign out", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const ledger = yield* TestLedger
      const local = yield* LocalLedger
      const upstream = yield* Upstream
      const api = yield* makeApiClient(baseUrl)
      const browser = yield* browserOf
      const { seed, keypair: owner } = testKey("owner")
      yield* ledger.gas(owner.toSuiAddress())
      yield* local.mint(owner.toSuiAddress(), TEST_COIN, 1_000n)
      const { page, problems } = yield* run(() => walletPage(browser, seed))
      const agentKey = new Ed25519Keypair()
      yield* ledger.gas(agentKey.toSuiAddress())
      const story = "owner"
      yield* run(() => freshOutput(story))

      yield* run(() => step(page, story, "01-loaded", () => page.goto(baseUrl).then(() => undefined)))
      yield* run(() => step(page, story, "02-signed-in", () => connectAndSignIn(page, baseUrl)))
      assert.deepStrictEqual((yield* run(() => walletLog(page))).slice(0, 2), ["connect", "signPersonalMessage"])

      // Fund: 0.5 SUI typed in display units, then 300 of the coin without metadata (atomic units).
      yield* run(() => step(page, story, "03-funded", async () => {
        await page.locator("#fund-amount").fill("0.5")
        await page.locator("#fund").click()
        await accountRow(page, "SUI").locator(".balance", { hasText: "0.5 SUI (500000000 atomic)" }).waitFor()
        await page.locator("#fund-coin").fill(TEST_COIN)
        await page.locator("#fund-coin").dispatchEvent("change")
        await page.locator("#fund-amount").fill("300")
        await page.locator("#fund").click()
        await page.locator("#spend-accounts tbody tr", { hasText: "300 atomic TEST" }).waitFor()
      }))

      // Withdraw 0.1 SUI back to the wallet.
      yield* run(() => step(page, story, "04-withdrawn", async () => {
        const row = accountRow(page, "SUI")
        await row.locator("input").fill("0.1")
        await row.getByRole("button", { name: "Withdraw" }).click()
        await row.locator(".balance", { hasText: "0.4 SUI (400000000 atomic)" }).waitFor()
      }))

      // A coin the owner has no spend account for: the API's error shows with what to do.
      yield* run(() => step(page, story, "05-error-explained", async () => {
        await page.locator("#agent-address").fill(agentKey.toSuiAddress())
        await page.locator("#scope-1-asset").fill("0x3::nothing::NOTHING")
        await page.locator("#scope-1-budget").fill("1")
        await page.locator("#scope-1-per-payment").fill("1")
        await page.locator("#review-signer").click()
        await page.locator("#create-signer").click()
        await page.locator("#error", { hasText: "UNSUPPORTED_ASSET" }).waitFor()
        await page.locator("#error .advice", { hasText: "Create a spend account for this coin first" }).waitFor()
      }))

      // Two scopes typed in display units, reviewed both ways, then each grant signed in the wallet and finalized.
      const before = (yield* run(() => walletLog(page))).length
      yield* run(() => step(page, story, "06-reviewed", async () => {
        await page.locator("#signer-name").fill("research agent")
        await page.locator("#scope-1-asset").fill(SUI)
        await page.locator("#scope-1-budget").fill("0.01")
        await page.locator("#scope-1-per-payment").fill("0.001")
        // A daily window on SUI, which the chain enforces besides the budget.
        await page.locator("#scope-1-window").selectOption("day")
        await page.locator("#scope-1-window-limit").fill("0.005")
        await page.locator("#add-scope").click()
        await page.locator("#scope-2-asset").fill(TEST_COIN)
        await page.locator("#scope-2-budget").fill("200")
        await page.locator("#scope-2-per-payment").fill("50")
        await page.locator("#review-signer").click()
        const review = page.locator("#review")
        await review.getByRole("row", { name: /budget 0\.01 10000000 0\.01/ }).waitFor()
        await review.getByRole("row", { name: /per payment 0\.001 1000000 0\.001/ }).waitFor()
        await review.getByRole("row", { name: /budget 200 200 200 atomic/ }).waitFor()
        await review.getByRole("row", { name: /per day 0\.005 5000000 0\.005/ }).waitFor()
      }))
      yield* run(() => step(page, story, "07-active", async () => {
        await page.locator("#create-signer").click()
        await page.locator("article.signer header .status", { hasText: "active" }).waitFor()
      }))
      const signerId = (yield* run(() => page.locator("article.signer").first().getAttribute("data-signer"))) ?? ""
      const card = page.locator(`article[data-signer="${signerId}"]`)
      assert.deepStrictEqual((yield* run(() => walletLog(page))).slice(before), ["signAndExecuteTransaction", "signAndExecuteTransaction"])
      assert.strictEqual(yield* run(() => card.locator("tr[data-grant]").count()), 2)
      yield* run(() => card.locator("tr[data-grant] .remaining", { hasText: "0.01 SUI (10000000 atomic)" }).waitFor())
      const suiRow = card.locator("tr[data-grant]").filter({ has: page.getByRole("cell", { name: "SUI", exact: true }) })
      yield* run(() => suiRow.locator(".window", { hasText: "0.005 SUI (5000000 atomic) per day" }).waitFor())
      yield* run(() => card.locator("tr[data-grant] .window", { hasText: /^none$/ }).waitFor())

      // The agent gets the manifest as a download, and pays for one call through the SDK.
      const download = yield* run(async () => {
        const [file] = await Promise.all([page.waitForEvent("download"), card.getByRole("button", { name: "Download manifest" }).click()])
        return readFile(await file.path(), "utf8")
      })
      const manifest = Schema.decodeUnknownSync(ConnectionManifest)(JSON.parse(download))
      assert.strictEqual(manifest.delegatedSignerId, signerId)
      assert.strictEqual(manifest.grants.length, 2)
      const { entry } = yield* liveService(api, { price: 400_000n, upstreamUrl: upstream.url })
      const paid = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client }).fetchPaid(entry.resourceUrl)
      assert.strictEqual(paid.response.status, 200)

      yield* run(() => step(page, story, "08-paid", async () => {
        await card.getByRole("button", { name: "Refresh" }).click()
        await card.locator("tr[data-grant] .remaining", { hasText: "0.0096 SUI (9600000 atomic)" }).waitFor()
        await card.locator("tr[data-grant] .spent", { hasText: "0.0004 SUI (400000 atomic)" }).waitFor()
        // The window's spending as the chain holds it, and when the window resets (a day after the grant's creation).
        await suiRow.locator(".window-spent", { hasText: "0.0004 SUI (400000 atomic)" }).waitFor()
        const resets = Date.parse(await suiRow.locator(".window-resets").innerText())
        assert.isTrue(resets > Date.now() && resets <= Date.now() + 86_400_000, `resets at ${resets}`)
        await card.locator("table").first().screenshot({ path: join(OUTPUT, story, "08-window-figures.png") })
        const payment = card.locator(".payments tbody tr", { hasText: "0.0004 SUI (400000 atomic)" })
        await payment.locator(".outcome", { hasText: "settled" }).waitFor()
        await payment.getByText(paid.digest ?? "no digest").waitFor()
      }))

      for (const [action, status, name] of [["Pause", "paused", "09-paused"], ["Resume", "active", "10-resumed"], ["Revoke", "revoked", "11-revoked"]] as const) {
        yield* run(() => step(page, story, name, async () => {
          await card.getByRole("button", { name: action }).click()
          await statusOf(page, signerId).filter({ hasText: new RegExp(`^${status}$`) }).waitFor()
        }))
      }

      // Phone width: nothing wider than the screen.
      yield* run(() => step(page, story, "12-phone-width", async () => {
        await page.setViewportSize({ width: 390, height: 844 })
        const width = await page.evaluate(() => document.documentElement.scrollWidth)
        assert.isAtMost(width, 390)
      }))

      // Every session of the owner revoked elsewhere: the next call says to sign in again, and signing in works.
      const elsewhere = withOwner((yield* signIn(api, owner)).authorization)
      yield* api.auth.revokeAll().pipe(elsewhere)
      yield* run(() => step(page, story, "13-session-ended", async () => {
        await page.setViewportSize({ width: 1200, height: 900 })
        await card.getByRole("button", { name: "Refresh" }).click()
        await page.locator("#error", { hasText: "UNAUTHENTICATED" }).waitFor()
        await page.locator("#error .advice", { hasText: "Sign in again" }).waitFor()
        await page.locator("#owner-area").waitFor({ state: "hidden" })
        await page.locator("#sign-in").click()
        await page.locator("#who", { hasText: "Signed in as" }).waitFor()
      }))

      yield* run(() => step(page, story, "14-signed-out", async () => {
        await page.locator("#sign-out").click()
        await page.locator("#who", { hasText: "not signed in" }).waitFor()
        await page.locator("#owner-area").waitFor({ state: "hidden" })
      }))

      assert.deepStrictEqual(problems, [])
    }))
})
