import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { randomBytes } from "node:crypto"
import { paidCallEnv, SUI } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { browserOf, connectAndSignIn, freshOutput, run, step, testKey, walletLog, walletPage } from "./support/Browser.ts"

/** The owner holds only this coin, and no SUI at all. */
const TEST_COIN = `0x${randomBytes(32).toString("hex")}::test_coin::TEST`
const Env = paidCallEnv({ supportedAssets: [SUI, TEST_COIN] })

layer(Env, { timeout: 240_000, excludeTestServices: true })("the owner's console with gas sponsored", (it) => {
  it.effect("an owner with no SUI funds a spend account, creates a signer and pauses it, the platform paying every gas", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const ledger = yield* TestLedger
      const local = yield* LocalLedger
      const browser = yield* browserOf
      const { seed, keypair: owner } = testKey("sponsored")
      yield* local.mint(owner.toSuiAddress(), TEST_COIN, 1_000n)
      const suiBalance = Effect.map(
        Effect.promise(() => ledger.client.core.getBalance({ owner: owner.toSuiAddress() })),
        ({ balance }) => balance.balance
      )
      assert.strictEqual(yield* suiBalance, "0")
      const { page, problems } = yield* run(() => walletPage(browser, seed))
      const story = "sponsored"
      yield* run(() => freshOutput(story))

      yield* run(() => step(page, story, "01-signed-in", () => connectAndSignIn(page, baseUrl)))
      yield* run(() => step(page, story, "02-funded", async () => {
        await page.locator("#fund-coin").fill(TEST_COIN)
        await page.locator("#fund-coin").dispatchEvent("change")
        await page.locator("#fund-amount").fill("400")
        await page.locator("#fund").click()
        await page.locator("#spend-accounts tbody tr", { hasText: "400 atomic TEST" }).waitFor()
      }))
      yield* run(() => step(page, story, "03-active", async () => {
        await page.locator("#agent-address").fill(new Ed25519Keypair().toSuiAddress())
        await page.locator("#scope-1-asset").fill(TEST_COIN)
        await page.locator("#scope-1-budget").fill("100")
        await page.locator("#scope-1-per-payment").fill("10")
        await page.locator("#review-signer").click()
        await page.locator("#create-signer").click()
        await page.locator("article.signer header .status", { hasText: "active" }).waitFor()
      }))
      yield* run(() => step(page, story, "04-paused", async () => {
        await page.locator("article.signer").getByRole("button", { name: "Pause" }).click()
        await page.locator("article.signer header .status", { hasText: "paused" }).waitFor()
      }))

      // Every transaction was signed by the wallet and executed by the gateway: none by the wallet itself, and the owner still holds no SUI.
      const log = yield* run(() => walletLog(page))
      assert.deepStrictEqual(log, ["connect", "signPersonalMessage", "signTransaction", "signTransaction", "signTransaction"])
      assert.strictEqual(yield* suiBalance, "0")
      assert.deepStrictEqual(problems, [])
    }))
})
