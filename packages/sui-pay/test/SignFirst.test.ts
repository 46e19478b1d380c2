import { assert, describe, layer } from "@effect/vitest"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from "@x402/core/http"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Mppx } from "mppx/client"
import { Receipt } from "mppx"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { suiSignFirstMethod } from "../src/mpp/SuiSignFirstMethod.ts"
import { paidFetch } from "../src/PaidFetch.ts"
import { payingFor } from "../src/PaidRequest.ts"
import { exactSuiScheme } from "../src/x402/ExactSuiScheme.ts"
import { suiX402Client } from "../src/x402/SuiX402Client.ts"
import { gaslessPaidService, grantSpent, suiBalance } from "./support/GaslessAgent.ts"
import { poolBalance } from "./support/PoolBalance.ts"

/**
 * A fetch that records the payment each paid request presented (its `PAYMENT-SIGNATURE`), and runs `onPaid` on
 * each paid request's answer before handing it back: the seller coming back up between two attempts.
 */
const recordingFetch = (onPaid: (response: Response) => void = () => {}) => {
  const presented: Array<string> = []
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const credential = request.headers.get("payment-signature")
    const response = await fetch(request)
    if (credential !== null) {
      presented.push(credential)
      onPaid(response)
    }
    return response
  }
  return { fetch: recording, presented }
}

/** The signed transaction a presented `exact` payment carries. */
const signedTransaction = (credential: string | undefined) => String(decodePaymentSignatureHeader(credential ?? "").payload["transaction"])

/** A fresh agent that owns no SUI, its grant and pool, and `@x402/fetch` with sui-pay's client (exact first) through `paidFetch`. */
const gaslessX402Agent = (onPaid?: (response: Response) => void) =>
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const ledger = yield* TestLedger
    const { entry, agentKey, manifest } = yield* gaslessPaidService(upstream.url)
    const grant = manifest.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant in the manifest")
    const recording = recordingFetch(onPaid)
    const paid = paidFetch(wrapFetchWithPayment(recording.fetch, suiX402Client({ signer: agentKey, manifest, client: ledger.client })))
    return { upstream, entry, agentKey, manifest, grant, paid, presented: recording.presented }
  })

describe("@gateway/sui-pay sign-first: charged only for answers, with gas the agent does not own", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("the gateway's 402 offers exact first (then sui-delegate and sui-session), with a gas station on its origin that answers", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, manifest } = yield* gaslessPaidService(upstream.url)
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        assert.deepStrictEqual(required.accepts.map((offer) => offer.scheme), ["exact", "sui-delegate", "sui-session"])
        const station = String(required.accepts[0]?.extra?.["gasStation"])
        assert.strictEqual(new URL(station).origin, new URL(manifest.apiBaseUrl).origin)
        // An empty kind is no payment: the station is there and refuses it.
        const refused = yield* Effect.promise(() =>
          fetch(station, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ transactionKind: "AA==", sender: manifest.delegate }) })
        )
        assert.strictEqual(refused.status, 400)
      }))

    it.effect("the exact scheme signs one payment per challenge, however often asked, and refuses what the manifest does not vouch for", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* gaslessPaidService(upstream.url)
        const scheme = exactSuiScheme({ signer: agentKey, manifest, client: ledger.client })
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        const offer = required.accepts.find((o) => o.scheme === "exact")
        if (offer === undefined) return assert.fail("no exact offer")
        const request = { url: new URL(entry.resourceUrl), method: "GET" }

        const payloads = yield* Effect.promise(() =>
          payingFor(request, () => Promise.all([1, 2, 3].map(() => scheme.createPaymentPayload(2, offer))))
        )
        const again = yield* Effect.promise(() => payingFor(request, () => scheme.createPaymentPayload(2, offer)))
        assert.strictEqual(new Set([...payloads, again].map((p) => p.payload["transaction"])).size, 1, "one signed payment for one challenge")
        assert.strictEqual(new Set([...payloads, again].map((p) => p.payload["signature"])).size, 1)

        const refusal = (changed: Record<string, unknown>, call: { url: URL; method: string } | "unknown" = request) =>
          Effect.promise(() =>
            payingFor(call === "unknown" ? undefined : call, () => scheme.createPaymentPayload(2, { ...offer, ...changed })).then(() => "signed", (e: Error) => e.message)
          )
        assert.match(yield* refusal({ extra: { ...offer.extra, resourceUrl: `https://elsewhere.example/v1/pay/${entry.id}` } }), /exact: not paid: origin:/)
        assert.match(yield* refusal({ amount: "101" }), /exact: not paid: amount: 101 exceeds the per-payment cap 100/)
        assert.match(yield* refusal({ extra: { ...offer.extra, gasStation: "https://station.example/sponsor", nonce: "another-nonce" } }), /gas station: .* is not on the gateway's origin/)
        assert.match(yield* refusal({}, "unknown"), /exact: not paid: request: the URL this 402 answered is unknown/)
        assert.match(yield* refusal({}, { url: new URL(entry.resourceUrl), method: "POST" }), /exact: not paid: method: /)
        assert.match(yield* refusal({ scheme: "sui-delegate" }), /not a Sui exact offer/)
      }))

    it.effect("(i) @x402/fetch + exact, an agent owning no SUI: answered, the pool pays exactly the price, the agent still owns no SUI", () =>
      Effect.gen(function*() {
        const { upstream, entry, agentKey, grant, paid } = yield* gaslessX402Agent()
        upstream.failing = false
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n)
        const before = yield* poolBalance(grant.pool)

        const response = yield* Effect.promise(() => paid(entry.resourceUrl))
        assert.strictEqual(response.status, 200)
        assert.strictEqual(((yield* Effect.promise(() => response.json())) as { answer: number }).answer, 42)
        const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "")
        assert.deepInclude(settled, { success: true, payer: agentKey.toSuiAddress(), amount: "40" })
        assert.strictEqual(before - (yield* poolBalance(grant.pool)), 40n, "the owner's pool paid exactly the price")
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n, "the agent paid no gas")
      }))

    it.effect("(ii) a seller failing once: @x402/fetch presents the same signed payment again; one payment, one answer", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, grant, paid, presented } = yield* gaslessX402Agent(() => {
          upstream.failing = false
        })
        upstream.failing = true
        const [pool, spent, calls] = [yield* poolBalance(grant.pool), yield* grantSpent(grant.grantObjectId), upstream.calls.length]

        const response = yield* Effect.promise(() => paid(entry.resourceUrl))
        assert.strictEqual(response.status, 200)
        assert.strictEqual(presented.length, 2, "presented twice: once to a failing seller, once again")
        assert.strictEqual(signedTransaction(presented[1]), signedTransaction(presented[0]), "the retry presented the same signed bytes")
        assert.strictEqual(upstream.calls.length - calls, 2, "the seller failed once and answered once")
        const settled = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "")
        assert.strictEqual(settled.transaction, TransactionDataBuilder.getDigestFromBytes(fromBase64(signedTransaction(presented[0]))))
        assert.strictEqual(pool - (yield* poolBalance(grant.pool)), 40n, "one payment")
        assert.strictEqual((yield* grantSpent(grant.grantObjectId)) - spent, 40n, "one payment through the grant")
      }))

    it.effect("(iii) a seller failing every time: nothing moves on chain, the grant's spent amount is unchanged", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { upstream, entry, agentKey, grant, paid, presented } = yield* gaslessX402Agent()
        upstream.failing = true
        const [pool, spent] = [yield* poolBalance(grant.pool), yield* grantSpent(grant.grantObjectId)]

        const response = yield* Effect.promise(() => paid(entry.resourceUrl))
        upstream.failing = false
        assert.strictEqual(response.status, 503)
        assert.match(((yield* Effect.promise(() => response.json())) as { reason: string }).reason, /nothing_charged/)
        assert.isNull(response.headers.get("payment-response"))
        assert.strictEqual(yield* poolBalance(grant.pool), pool, "the pool paid nothing")
        assert.strictEqual(yield* grantSpent(grant.grantObjectId), spent, "the grant spent nothing")
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n)
        const digest = TransactionDataBuilder.getDigestFromBytes(fromBase64(signedTransaction(presented[0])))
        const executed = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest }).then(() => true, () => false))
        assert.isFalse(executed, "the signed payment was never executed")
      }))

    it.effect("mppx + the sign-first method, an agent owning no SUI: answered, the pool pays exactly the price", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        upstream.failing = false
        const { entry, agentKey, manifest } = yield* gaslessPaidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        // The MPP challenge names no gas station: the client names the gateway's.
        const method = suiSignFirstMethod({ signer: agentKey, manifest, client: ledger.client, gasStation: `${manifest.apiBaseUrl}/v1/gas-station` })
        const mppx = Mppx.create({ methods: [method], polyfill: false })
        const before = yield* poolBalance(pool)

        const response = yield* Effect.promise(() => paidFetch(mppx.fetch)(entry.resourceUrl))
        assert.strictEqual(response.status, 200)
        assert.deepInclude(Receipt.fromResponse(response), { method: "sui", status: "success" })
        assert.strictEqual(before - (yield* poolBalance(pool)), 40n)
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n)
      }))
  })
})
