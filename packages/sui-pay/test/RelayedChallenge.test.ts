import { assert, describe, layer } from "@effect/vitest"
import { x402Client } from "@x402/core/client"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Mppx } from "mppx/client"
import { Effect } from "effect"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import { paidService, serve } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { suiMethod } from "../src/mpp/SuiMethod.ts"
import { suiSessionMethod } from "../src/mpp/SuiSessionMethod.ts"
import { suiSignFirstMethod } from "../src/mpp/SuiSignFirstMethod.ts"
import { paidFetch } from "../src/PaidFetch.ts"
import { makeSessionPayer } from "../src/SessionPayer.ts"
import { suiDelegateScheme } from "../src/x402/SuiDelegateScheme.ts"
import { suiX402Client, suiX402HttpClient } from "../src/x402/SuiX402Client.ts"
import { poolBalance } from "./support/PoolBalance.ts"
import { relayingSite } from "./support/RelayingSite.ts"

/** A call's outcome: its status, or the message it failed with. */
const outcome = (call: Promise<Response>) =>
  Effect.promise(() => call.then((r) => r.status, (e: unknown) => (e instanceof Error ? e.message : String(e))))

/** A fresh agent with a grant for a live 40-MIST GET service, and its `@x402/fetch` client through `paidFetch`. */
const x402Agent = Effect.gen(function*() {
  const upstream = yield* Upstream
  const ledger = yield* TestLedger
  const { entry, agentKey, manifest } = yield* paidService(upstream.url)
  const client = new x402Client()
    .register("sui:*", suiDelegateScheme({ signer: agentKey, manifest, client: ledger.client }))
    .setSpendControls({ allowedAssets: [{ network: suiNetwork(manifest.network), asset: entry.asset, maxAmountPerPayment: "100" }] })
  const pool = manifest.grants[0]?.pool ?? ""
  return { upstream, entry, manifest, pool, paid: paidFetch(wrapFetchWithPayment(fetch, client)) }
})

/**
 * The story both clients must tell: the same 402 relayed by a foreign website is refused (nothing paid, no
 * credential handed over, the seller not called); the gateway's own is paid once.
 */
const relayRefusedOwnPaid = (agent: Effect.Success<typeof x402Agent>) =>
  Effect.gen(function*() {
    const { upstream, entry, manifest, pool, paid } = agent
    const site = yield* relayingSite(entry.resourceUrl)
    const before = yield* poolBalance(pool)
    const calls = upstream.calls.length

    const refused = yield* outcome(paid(`${site.url}/article`))
    assert.match(String(refused), new RegExp(`not paid: origin: only challenges from ${manifest.apiBaseUrl} are paid`))
    assert.strictEqual(yield* poolBalance(pool), before, "nothing was paid")
    assert.deepStrictEqual(site.stolen, [], "the website was handed no credential")
    assert.strictEqual(upstream.calls.length, calls, "the seller was not called")

    assert.strictEqual(yield* outcome(paid(entry.resourceUrl)), 200)
    assert.strictEqual(before - (yield* poolBalance(pool)), 40n, "the gateway's own 402 was paid, once")
  })

/**
 * Threat: a foreign website an agent fetches answers with a real gateway 402
 * (copied from the gateway, for the website's own URL). A standard client with
 * our scheme or method would pay it from the owner's spend account and hand
 * the website the credential, which the website redeems at the gateway.
 */
describe("security: standard clients through paidFetch refuse a relayed 402", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("@x402/fetch: a relayed 402 is refused before anything is paid; the gateway's own is paid", () =>
      Effect.gen(function*() {
        yield* relayRefusedOwnPaid(yield* x402Agent)
      }))

    it.effect("@x402/fetch: concurrent calls through one paidFetch each pay for their own request only", () =>
      Effect.gen(function*() {
        const { entry, manifest, pool, paid } = yield* x402Agent
        // The website's 402 arrives after the gateway call has started: a shared "current URL" would pay it.
        const site = yield* relayingSite(entry.resourceUrl, 500)
        const before = yield* poolBalance(pool)

        const [relayed, direct] = yield* Effect.all([outcome(paid(`${site.url}/article`)), outcome(paid(entry.resourceUrl))], { concurrency: 2 })
        assert.match(String(relayed), new RegExp(`not paid: origin: only challenges from ${manifest.apiBaseUrl} are paid`))
        assert.strictEqual(direct, 200)
        assert.deepStrictEqual(site.stolen, [])
        assert.strictEqual(before - (yield* poolBalance(pool)), 40n, "only the gateway call was paid")
      }))

    it.effect("@x402/fetch: a foreign URL that redirects to the gateway's paid call is not paid", () =>
      Effect.gen(function*() {
        const { entry, pool, paid } = yield* x402Agent
        const stolen: Array<string> = []
        // @x402/fetch sends the credential to the URL it was asked for, not to where the 402 came from.
        const site = yield* serve((request, response) => {
          const credential = request.headers["payment-signature"]
          if (typeof credential === "string") stolen.push(credential)
          response.writeHead(302, { location: entry.resourceUrl })
          response.end()
        })
        const before = yield* poolBalance(pool)

        assert.match(String(yield* outcome(paid(`${site.url}/article`))), /not paid: origin: /)
        assert.strictEqual(yield* poolBalance(pool), before, "nothing was paid")
        assert.deepStrictEqual(stolen, [])
      }))

    it.effect("@x402/fetch with sui-pay's client (exact first, sui-delegate behind): a relayed 402 is refused; the gateway's own is paid", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const paid = paidFetch(wrapFetchWithPayment(fetch, suiX402Client({ signer: agentKey, manifest, client: ledger.client })))
        yield* relayRefusedOwnPaid({ upstream, entry, manifest, pool, paid })
      }))

    it.effect("mppx with the sign-first method: a relayed 402 is refused before anything is signed; the gateway's own is paid", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const method = suiSignFirstMethod({ signer: agentKey, manifest, client: ledger.client, gasStation: `${manifest.apiBaseUrl}/v1/gas-station` })
        const mppx = Mppx.create({ methods: [method], polyfill: false })
        yield* relayRefusedOwnPaid({ upstream, entry, manifest, pool, paid: paidFetch(mppx.fetch) })
      }))

    it.effect("@x402/fetch with sessions: a relayed 402 opens no session and signs no voucher; the gateway's own is paid from a session", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        // A deposit of one call: what the gateway's own 402 costs the pool is its price, as for the other clients.
        const sessions = makeSessionPayer({ signer: agentKey, manifest, client: ledger.client, sessionCalls: 1 })
        const paid = paidFetch(wrapFetchWithPayment(fetch, suiX402HttpClient({ signer: agentKey, manifest, client: ledger.client, sessions })))
        yield* relayRefusedOwnPaid({ upstream, entry, manifest, pool, paid })
        assert.strictEqual(sessions.sessions().length, 1, "one session, opened for the gateway's own 402")
      }))

    it.effect("mppx with the session method: a relayed 402 opens no session and signs no voucher; the gateway's own is paid from a session", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const sessions = makeSessionPayer({ signer: agentKey, manifest, client: ledger.client, sessionCalls: 1 })
        const mppx = Mppx.create({ methods: [suiSessionMethod({ payer: sessions })], polyfill: false })
        yield* relayRefusedOwnPaid({ upstream, entry, manifest, pool, paid: paidFetch(mppx.fetch) })
        assert.strictEqual(sessions.sessions().length, 1)
      }))

    it.effect("mppx: a relayed 402 is refused before anything is paid; the gateway's own is paid", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const mppx = Mppx.create({ methods: [suiMethod({ signer: agentKey, manifest, client: ledger.client })], polyfill: false })
        yield* relayRefusedOwnPaid({ upstream, entry, manifest, pool, paid: paidFetch(mppx.fetch) })
      }))
  })
})
