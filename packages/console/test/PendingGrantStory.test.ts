import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { createRequest, paidCallEnv, SUI } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { browserOf, connectAndSignIn, freshOutput, run, step, testKey, walletLog, walletPage } from "./support/Browser.ts"

const Env = paidCallEnv()

layer(Env, { timeout: 240_000, excludeTestServices: true })("a pending grant in Chromium", (it) => {
  it.effect("created but never signed (the page closed first), it is signed from the signer's card after a reload", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const ledger = yield* TestLedger
      const api = yield* makeApiClient(baseUrl)
      const browser = yield* browserOf
      const { seed, keypair: owner } = testKey("pending")
      yield* ledger.fundPool(owner, SUI, 1_000_000n)
      // The create the closed page made: the gateway answered its kind, which nobody signed.
      const asOwner = withOwner((yield* signIn(api, owner)).authorization)
      const created = yield* api.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), `pending-${Date.now()}`)).pipe(asOwner)
      const signerId = created.delegatedSignerId
      const { page, problems } = yield* run(() => walletPage(browser, seed))
      const story = "pending-grant"
      yield* run(() => freshOutput(story))
      const card = page.locator(`article[data-signer="${signerId}"]`)

      yield* run(() => step(page, story, "01-pending", async () => {
        await connectAndSignIn(page, baseUrl)
        await card.locator("header .status", { hasText: "awaiting_owner_signature" }).waitFor()
        await card.locator("tr[data-grant] .status", { hasText: "pending" }).waitFor()
        await card.getByRole("button", { name: "Sign", exact: true }).waitFor()
      }))
      const before = (yield* run(() => walletLog(page))).length
      yield* run(() => step(page, story, "02-signed", async () => {
        await card.getByRole("button", { name: "Sign", exact: true }).click()
        await card.locator("header .status", { hasText: "active" }).waitFor()
      }))
      assert.deepStrictEqual((yield* run(() => walletLog(page))).slice(before), ["signAndExecuteTransaction"])
      // Active now: nothing is left to sign, so the card no longer offers it.
      assert.strictEqual(yield* run(() => card.getByRole("button", { name: "Sign", exact: true }).count()), 0)
      const { delegatedSigner } = yield* api.delegatedSigners.get({ params: { id: signerId } }).pipe(asOwner)
      assert.strictEqual(delegatedSigner.status, "active")
      assert.deepStrictEqual(problems, [])
    }))
})
