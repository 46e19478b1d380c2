import { assert, describe, layer } from "@effect/vitest"
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Mppx } from "mppx/client"
import { Receipt } from "mppx"
import { Effect } from "effect"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { suiMethod } from "../src/mpp/SuiMethod.ts"
import { paidFetch } from "../src/PaidFetch.ts"
import { payingFor } from "../src/PaidRequest.ts"
import { makeSuiPayer } from "../src/SuiPayer.ts"
import { suiDelegateScheme } from "../src/x402/SuiDelegateScheme.ts"
import { poolBalance } from "./support/PoolBalance.ts"

const answerOf = (response: Response) => Effect.promise(async () => ({ status: response.status, body: await response.json() as unknown }))

describe("@gateway/sui-pay: standard x402 and MPP clients pay a gateway service", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("x402Client + wrapFetchWithPayment + the sui-delegate scheme, through paidFetch, pay and get the seller's answer", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url, "POST")
        const client = new x402Client()
          .register("sui:*", suiDelegateScheme({ signer: agentKey, manifest, client: ledger.client }))
          .setSpendControls({ allowedAssets: [{ network: suiNetwork(manifest.network), asset: entry.asset, maxAmountPerPayment: "100" }] })
        const fetchPaid = paidFetch(wrapFetchWithPayment(fetch, client))

        const before = upstream.calls.length
        const response = yield* Effect.promise(() =>
          fetchPaid(entry.resourceUrl, { method: "POST", body: JSON.stringify({ q: 1 }), headers: { "content-type": "application/json" } })
        )
        const answer = yield* answerOf(response)
        assert.strictEqual(answer.status, 200)
        assert.deepStrictEqual(answer.body, { answer: 42, call: before + 1 })
        assert.strictEqual(upstream.calls.length, before + 1)
        assert.strictEqual(upstream.calls[before]?.method, "POST")
        const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "")
        assert.deepInclude(settled, { success: true, network: suiNetwork(manifest.network), payer: agentKey.toSuiAddress(), amount: "40" })
      }))

    it.effect("the scheme pays a challenge at most once, however often it is asked to; a spend cap below the price refuses it", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const scheme = suiDelegateScheme({ signer: agentKey, manifest, client: ledger.client })
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        // The upfront offer; the gateway offers exact (sign-first) first.
        const offer = required.accepts.find((o) => o.scheme === "sui-delegate")
        if (offer === undefined) return assert.fail("no offer")
        const request = { url: new URL(entry.resourceUrl), method: "GET" }

        const before = yield* poolBalance(pool)
        const payloads = yield* Effect.promise(() =>
          payingFor(request, () => Promise.all([scheme.createPaymentPayload(2, offer), scheme.createPaymentPayload(2, offer), scheme.createPaymentPayload(2, offer)]))
        )
        const again = yield* Effect.promise(() => payingFor(request, () => scheme.createPaymentPayload(2, offer)))
        const digests = new Set([...payloads, again].map((p) => p.payload["digest"]))
        assert.strictEqual(digests.size, 1, "one payment for one challenge")
        assert.strictEqual(before - (yield* poolBalance(pool)), 40n, "the pool paid once")

        const capped = yield* Effect.promise(() =>
          payingFor(request, () => scheme.createPaymentPayload(2, offer, { maxAmountPerPayment: "39" })).then(() => "paid", (e: Error) => e.message)
        )
        assert.match(capped, /exceeds the client's spend cap 39/)
      }))

    it.effect("the scheme refuses, before paying, an offer its manifest does not vouch for", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const scheme = suiDelegateScheme({ signer: agentKey, manifest, client: ledger.client })
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        // The upfront offer; the gateway offers exact (sign-first) first.
        const offer = required.accepts.find((o) => o.scheme === "sui-delegate")
        if (offer === undefined) return assert.fail("no offer")
        const request = { url: new URL(entry.resourceUrl), method: "GET" }
        const refusal = (changed: Record<string, unknown>) =>
          Effect.promise(() => payingFor(request, () => scheme.createPaymentPayload(2, { ...offer, ...changed })).then(() => "paid", (e: Error) => e.message))
        assert.match(yield* refusal({ extra: { ...offer.extra, resourceUrl: `https://elsewhere.example/v1/pay/${entry.id}` } }), /origin:/)
        assert.match(yield* refusal({ extra: { ...offer.extra, packageId: `0x${"ab".repeat(32)}` } }), /package:/)
        assert.match(yield* refusal({ amount: "101" }), /amount: 101 exceeds the per-payment cap 100/)
        assert.match(yield* refusal({ asset: "0x2::coin::OTHER" }), /asset: no grant/)
        assert.match(yield* refusal({ extra: { ...offer.extra, expiresAt: new Date(Date.now() + 500).toISOString() } }), /expiry:/)
        assert.match(yield* refusal({ scheme: "exact" }), /not a sui-delegate offer/)

        // The request the 402 answered: unknown outside payingFor, another path, another method.
        const refusedFor = (call: { url: URL; method: string } | undefined) =>
          Effect.promise(() => payingFor(call, () => scheme.createPaymentPayload(2, offer)).then(() => "paid", (e: Error) => e.message))
        assert.match(yield* Effect.promise(() => scheme.createPaymentPayload(2, offer).then(() => "paid", (e: Error) => e.message)), /not paid: request: the URL this 402 answered is unknown/)
        assert.match(yield* refusedFor(undefined), /not paid: request: /)
        assert.match(yield* refusedFor({ url: new URL("/v1/pay/svc_other", entry.resourceUrl), method: "GET" }), /not paid: service: /)
        assert.match(yield* refusedFor({ url: new URL(entry.resourceUrl), method: "POST" }), /not paid: method: /)
      }))

    it.effect("mppx's client with the Sui method, through paidFetch, pays, and the Payment-Receipt verifies", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const payer = makeSuiPayer({ signer: agentKey, manifest, client: ledger.client })
        const mppx = Mppx.create({ methods: [suiMethod({ payer })], polyfill: false })

        const before = upstream.calls.length
        const response = yield* Effect.promise(() => paidFetch(mppx.fetch)(entry.resourceUrl))
        const answer = yield* answerOf(response)
        assert.strictEqual(answer.status, 200)
        assert.deepStrictEqual(answer.body, { answer: 42, call: before + 1 })
        const receipt = Receipt.fromResponse(response)
        assert.deepInclude(receipt, { method: "sui", status: "success" })
        assert.strictEqual(receipt.externalId, `${manifest.network}:${receipt.reference}`)
      }))
  })
})
