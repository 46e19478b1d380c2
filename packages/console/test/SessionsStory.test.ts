import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import type { Locator, Page } from "playwright-core"
import { type GatewayClient, makeApiClient } from "@gateway/client"
import { AtomicAmount } from "@gateway/domain/Amount"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { refs } from "../../server/test/support/PayByHand.ts"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { type OpenedSession, openByHand, payWithVoucher, sessionOffer, voucherSignature } from "../../server/test/support/SessionByHand.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { browserOf, connectAndSignIn, freshOutput, run, step, testKey, walletPage } from "./support/Browser.ts"

const Env = paidCallEnv()

/** One call's price, in atomic SUI: 0.00000004 SUI. */
const PRICE = 40n
const DAY_MS = 86_400_000

/** A SUI amount as the console shows it (9 decimals), for the small amounts of this story. */
const sui = (atomic: bigint) => `${atomic === 0n ? "0" : `0.${atomic.toString().padStart(9, "0").replace(/0+$/, "")}`} SUI (${atomic} atomic)`

const CLAIMING = "Claiming your sessions' unclaimed vouchers"

/** The page's progress notice, once it reports `label` finished (done or failed). */
const finished = async (page: Page, label: string) => {
  const progress = page.locator("#progress", { hasText: new RegExp(`^${label}: `) })
  await progress.waitFor()
  return progress.innerText()
}

/** The cells of a session's row, by their class. */
const cells = (row: Locator, names: ReadonlyArray<string>) => Promise.all(names.map((name) => row.locator(`td.${name}`).innerText()))

/** One wallet, both the seller of a live service at PRICE and the owner of the signer of an agent that may pay it. */
const sellerAndOwner = (api: GatewayClient, person: Ed25519Keypair) =>
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const { asOwner } = yield* fundedOwner(api, person)
    const { entry } = yield* liveService(api, { price: PRICE, upstreamUrl: upstream.url, seller: asOwner })
    const granted = yield* grantedAgent(api, person, asOwner, { key: "sessions-story", budget: 10_000n, perPayment: 100n })
    return { entry, ...granted }
  })

/** The agent opens a session by hand with `deposit` and pays `calls` calls of `url`, one voucher each. */
const openAndPay = (input: {
  readonly agentKey: Ed25519Keypair
  readonly manifest: Parameters<typeof refs>[0]
  readonly entry: { readonly resourceUrl: string; readonly payTo: string }
  readonly deposit: bigint
  readonly calls: bigint
}) =>
  Effect.gen(function*() {
    const offer = yield* sessionOffer(input.entry.resourceUrl)
    const session = yield* openByHand({
      agentKey: input.agentKey,
      ...refs(input.manifest),
      payee: input.entry.payTo,
      operator: String(offer.extra["sessionOperator"]),
      deposit: input.deposit,
      expiryMs: BigInt(Date.now() + DAY_MS)
    })
    for (let call = 1n; call <= input.calls; call++) {
      const answered = yield* payWithVoucher(input.entry.resourceUrl, offer, session, call * PRICE)
      assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
    }
    return session
  })

/** The agent ends the session with its final voucher for `used`; what went back to the pool. */
const closeByHand = (api: GatewayClient, session: OpenedSession, used: bigint) =>
  Effect.gen(function*() {
    const signature = yield* voucherSignature(session.sessionKey, session.sessionId, used, true)
    const closed = yield* api.paymentSessions.close({
      params: { id: ObjectId.make(session.sessionId) },
      payload: { cumulativeAmount: AtomicAmount.make(used.toString()), signature }
    })
    return BigInt(closed.returned)
  })

layer(Env, { timeout: 240_000, excludeTestServices: true })("payment sessions in the console in Chromium", (it) => {
  it.effect("the seller's and the owner's sessions: none yet and nothing to claim; then a session paid by hand shows its use, Claim now pays the seller, and its close shows what went back", () =>
    Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      const api = yield* makeApiClient(baseUrl)
      const browser = yield* browserOf
      const { seed, keypair: person } = testKey("sessions")
      const { entry, agentKey, manifest, signerId } = yield* sellerAndOwner(api, person)
      const { page, problems } = yield* run(() => walletPage(browser, seed))
      const story = "sessions"
      yield* run(() => freshOutput(story))
      const signerSessions = page.locator(`article[data-signer="${signerId}"] .sessions`)
      const serviceSessions = page.locator(`article[data-service="${entry.id}"] .sessions`)

      yield* run(() => step(page, story, "01-owner-no-sessions", async () => {
        await connectAndSignIn(page, baseUrl)
        await signerSessions.getByRole("cell", { name: "No sessions yet." }).waitFor()
      }))
      yield* run(() => step(page, story, "02-seller-no-sessions", async () => {
        await page.getByRole("tab", { name: "Seller: paid services" }).click()
        // Registered through the API, not this page: the seller's listing (GET /v1/sellers/me/services) has it all the same.
        await serviceSessions.getByRole("cell", { name: "No sessions yet." }).waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => serviceSessions.locator("thead th").allInnerTexts()), ["Agent", "Deposit", "Used", "Calls", "Claimed", "Unclaimed", "Returned", "State", "Expires"])
      yield* run(() => step(page, story, "03-nothing-to-claim", async () => {
        await serviceSessions.getByRole("button", { name: "Claim now" }).click()
        assert.strictEqual(await finished(page, CLAIMING), `${CLAIMING}: nothing was unclaimed.`)
        await serviceSessions.getByRole("cell", { name: "No sessions yet." }).waitFor()
      }))

      // The agent opens a session by hand with a deposit of ten calls and pays two calls with vouchers.
      const deposit = 10n * PRICE
      const used = 2n * PRICE
      const session = yield* openAndPay({ agentKey, manifest, entry, deposit, calls: 2n })
      const row = serviceSessions.locator(`tr[data-session="${session.sessionId}"]`)

      yield* run(() => step(page, story, "04-seller-session-used", async () => {
        await page.locator("#svc-refresh").click()
        await row.waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => cells(row, ["deposit", "used", "calls", "claimed", "unclaimed", "returned", "state"])),
        [sui(deposit), sui(used), "2", sui(0n), sui(used), "—", "open"])
      assert.strictEqual(yield* run(() => row.locator(".delegate abbr").getAttribute("title")), agentKey.toSuiAddress())

      yield* run(() => step(page, story, "05-claimed", async () => {
        await serviceSessions.getByRole("button", { name: "Claim now" }).click()
        assert.strictEqual(await finished(page, CLAIMING), `${CLAIMING}: claimed the unclaimed vouchers of 1 session.`)
        await row.locator("td.claimed", { hasText: sui(used) }).waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => cells(row, ["unclaimed"])), [sui(0n)])

      const ownerRow = signerSessions.locator(`tr[data-session="${session.sessionId}"]`)
      yield* run(() => step(page, story, "06-owner-session", async () => {
        await page.getByRole("tab", { name: "Owner: spend accounts and signers" }).click()
        await page.locator(`article[data-signer="${signerId}"]`).getByRole("button", { name: "Refresh" }).click()
        await ownerRow.waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => signerSessions.locator("thead th").allInnerTexts()), ["Deposit", "Used", "Returned", "State", "Expires"])
      assert.deepStrictEqual(yield* run(() => cells(ownerRow, ["deposit", "used", "returned", "state"])), [sui(deposit), sui(used), "—", "open"])

      // The agent ends the session with its final voucher: the rest of the deposit goes back, and both views say so.
      assert.strictEqual(yield* closeByHand(api, session, used), deposit - used)
      yield* run(() => step(page, story, "07-owner-closed", async () => {
        await page.locator(`article[data-signer="${signerId}"]`).getByRole("button", { name: "Refresh" }).click()
        await ownerRow.locator(".state", { hasText: "closed" }).waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => cells(ownerRow, ["returned"])), [sui(deposit - used)])
      yield* run(() => step(page, story, "08-seller-closed", async () => {
        await page.getByRole("tab", { name: "Seller: paid services" }).click()
        await page.locator("#svc-refresh").click()
        await row.locator(".state", { hasText: "closed" }).waitFor()
      }))
      assert.deepStrictEqual(yield* run(() => cells(row, ["claimed", "unclaimed", "returned"])), [sui(used), sui(0n), sui(deposit - used)])

      assert.deepStrictEqual(problems, [])
    }))
})
