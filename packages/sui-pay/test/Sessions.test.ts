import { assert, describe, layer } from "@effect/vitest"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Receipt } from "mppx"
import { Mppx } from "mppx/client"
import { Effect, Layer } from "effect"
import { gatewayFor } from "../../server/test/support/PaidEnv.ts"
import { grantSpent, poolBalance } from "../../server/test/support/SessionByHand.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { PRICE, sellerSessions, sessionService } from "../../client/test/support/SessionService.ts"
import { suiSessionMethod } from "../src/mpp/SuiSessionMethod.ts"
import { paidFetch } from "../src/PaidFetch.ts"
import { payingFor } from "../src/PaidRequest.ts"
import { makeSessionPayer } from "../src/SessionPayer.ts"
import { suiSessionScheme } from "../src/x402/SuiSessionScheme.ts"
import { suiX402HttpClient } from "../src/x402/SuiX402Client.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

/** A fetch that records the `PAYMENT-SIGNATURE` of each paid request. */
const recordingFetch = () => {
  const presented: Array<string> = []
  const recording = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const credential = request.headers.get("payment-signature")
    if (credential !== null) presented.push(credential)
    return fetch(request)
  }
  return { fetch: recording, presented }
}

/** The cumulative amount a presented x402 voucher carries. */
const cumulativeOf = (credential: string | undefined) => String(decodePaymentSignatureHeader(credential ?? "").payload["cumulativeAmount"])

describe("@gateway/sui-pay sessions: standard x402 and MPP clients pay from one session", () => {
  layer(env, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("@x402/fetch with the session scheme: 5 calls through one session, a failed call retried with the same voucher, then 3 MPP calls from the same session; closing returns the rest", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const s = yield* sessionService()
        const sessions = makeSessionPayer({ signer: s.agentKey, manifest: s.manifest, client: ledger.client, sessionCalls: 20 })
        const recording = recordingFetch()
        const x402Fetch = paidFetch(wrapFetchWithPayment(recording.fetch, suiX402HttpClient({ signer: s.agentKey, manifest: s.manifest, client: ledger.client, sessions })))
        const poolBefore = yield* poolBalance(s.grant.pool)

        for (let call = 1n; call <= 5n; call++) {
          const answered = yield* Effect.promise(() => x402Fetch(s.entry.resourceUrl))
          assert.strictEqual(answered.status, 200, yield* Effect.promise(() => answered.clone().text()))
          const receipt = decodePaymentResponseHeader(answered.headers.get("payment-response") ?? "")
          assert.strictEqual(receipt.transaction, `${sessions.sessions()[0]?.sessionId}:${call * PRICE}`)
        }
        assert.strictEqual(sessions.sessions().length, 1, "one session for the five calls")

        s.upstream.failing = true
        const failed = yield* Effect.promise(() => x402Fetch(s.entry.resourceUrl)).pipe(Effect.ensuring(Effect.sync(() => {
          s.upstream.failing = false
        })))
        assert.strictEqual(failed.status, 503)
        const retried = yield* Effect.promise(() => x402Fetch(s.entry.resourceUrl))
        assert.strictEqual(retried.status, 200)
        const [failedVoucher, retriedVoucher] = recording.presented.slice(-2)
        assert.strictEqual(retriedVoucher, failedVoucher, "the retry presents the same voucher")
        assert.strictEqual(cumulativeOf(retriedVoucher), String(6n * PRICE))

        const mppx = Mppx.create({ methods: [suiSessionMethod({ payer: sessions })], polyfill: false })
        const mppFetch = paidFetch(mppx.fetch)
        for (let call = 7n; call <= 9n; call++) {
          const answered = yield* Effect.promise(() => mppFetch(s.entry.resourceUrl))
          assert.strictEqual(answered.status, 200, yield* Effect.promise(() => answered.clone().text()))
          assert.strictEqual(Receipt.fromResponse(answered).reference, `${sessions.sessions()[0]?.sessionId}:${call * PRICE}`)
        }
        assert.strictEqual(sessions.sessions().length, 1, "the MPP calls are paid from the same session")
        assert.strictEqual(s.calls(), 10, "nine answers and the failed forward")

        const used = 9n * PRICE
        const listed: Record<string, unknown> = { ...(yield* sellerSessions(s))[0] }
        assert.deepInclude(listed, { used: used.toString(), calls: "9" })
        const closed = yield* Effect.promise(() => sessions.closeSessions())
        assert.deepStrictEqual(closed.map((c) => c._tag === "Closed" ? [c.claimed, c.returned] : [c.reason]), [[used, 20n * PRICE - used]])
        assert.strictEqual(poolBefore - (yield* poolBalance(s.grant.pool)), used)
        assert.strictEqual(yield* grantSpent(s.grant.grantObjectId), used)
      }), { timeout: 120_000 })

    it.effect("the bare sui-session scheme: nothing outside payingFor; inside, each call's voucher grows by the price once its answer is returned", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const s = yield* sessionService()
        const scheme = suiSessionScheme({ signer: s.agentKey, manifest: s.manifest, client: ledger.client, sessionCalls: 5 })
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(s.entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        const offer = required.accepts.find((o) => o.scheme === "sui-session")
        if (offer === undefined) return assert.fail("no sui-session offer")
        const outside = yield* Effect.promise(() => scheme.createPaymentPayload(2, offer).then(() => "paid", (e: Error) => e.message))
        assert.match(outside, /not paid: request: the URL this 402 answered is unknown/)

        const request = { url: new URL(s.entry.resourceUrl), method: "GET" }
        // A transport of its own (as axios would be): the call, paid with the scheme's payload, its Response returned.
        const call = () =>
          payingFor(request, async () => {
            const { payload } = await scheme.createPaymentPayload(2, offer)
            const credential = encodePaymentSignatureHeader({ x402Version: 2, accepted: offer, payload })
            return fetch(s.entry.resourceUrl, { headers: { "payment-signature": credential } })
          })
        for (let n = 1n; n <= 3n; n++) {
          const answered = yield* Effect.promise(call)
          assert.strictEqual(answered.status, 200)
          assert.match(decodePaymentResponseHeader(answered.headers.get("payment-response") ?? "").transaction, new RegExp(`:${n * PRICE}$`))
        }
        assert.strictEqual(s.calls(), 3)
      }))
  })
})
