import { assert, describe, layer } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { Effect } from "effect"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { makeAgent, packageOf } from "@gateway/client/AgentSdk"
import { currentEpoch, signFirstPayment } from "@gateway/client/SignFirstPayment"
import { findExactOffer } from "@gateway/domain/payment/ExactOffer"
import { paidService } from "../../server/test/support/PaidEnv.ts"
import { paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { gaslessPaidService, grantSpent, suiBalance } from "../../sui-pay/test/support/GaslessAgent.ts"
import { poolBalance } from "../../sui-pay/test/support/PoolBalance.ts"

describe("the agent SDK pays sign-first by default: charged only for answers", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("an agent with no SUI: a failed call charges nothing; called again, the same signed payment is presented and charged once", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry, agentKey, manifest } = yield* gaslessPaidService(upstream.url)
        const grant = manifest.grants[0]
        if (grant === undefined) return assert.fail("no grant in the manifest")
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        const [pool, spent] = [yield* poolBalance(grant.pool), yield* grantSpent(grant.grantObjectId)]

        upstream.failing = true
        const failed = yield* agent.fetchPaid(entry.resourceUrl)
        upstream.failing = false
        assert.strictEqual(failed.response.status, 503)
        assert.isFalse(failed.charged)
        assert.isUndefined(failed.receipt)
        assert.isString(decodePaymentSignatureHeader(failed.credential ?? "").payload["transaction"], "a signed transaction, not a digest")
        assert.strictEqual(yield* poolBalance(grant.pool), pool, "nothing was charged")

        const answered = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(answered.response.status, 200)
        assert.isTrue(answered.charged)
        assert.strictEqual(answered.credential, failed.credential, "the same signed payment, presented again")
        assert.strictEqual(answered.receipt?.transaction, failed.digest, "the digest known at signing is the one executed")
        assert.strictEqual(pool - (yield* poolBalance(grant.pool)), 40n, "charged once")
        assert.strictEqual((yield* grantSpent(grant.grantObjectId)) - spent, 40n)
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n, "the gas station paid the gas")
      }))

    it.effect("the epoch ends while the seller works: the SDK signs the same challenge again and gets the kept answer, charged once", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const local = yield* LocalLedger
        const { entry, agentKey, manifest } = yield* gaslessPaidService(upstream.url)
        const grant = manifest.grants[0]
        if (grant === undefined) return assert.fail("no grant in the manifest")
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        const pool = yield* poolBalance(grant.pool)
        const calls = upstream.calls.length
        upstream.beforeAnswer = () => Effect.runPromise(Effect.asVoid(local.advanceEpoch()))
        const answered = yield* agent.fetchPaid(entry.resourceUrl).pipe(Effect.ensuring(Effect.sync(() => {
          upstream.beforeAnswer = undefined
        })))
        assert.strictEqual(answered.response.status, 200)
        assert.isTrue(answered.charged)
        assert.deepInclude(yield* Effect.promise(() => answered.response.json()), { answer: 42 })
        assert.strictEqual(upstream.calls.length - calls, 1, "the seller was asked once")
        assert.strictEqual(pool - (yield* poolBalance(grant.pool)), 40n, "charged once, by the payment signed again")
        assert.strictEqual(yield* suiBalance(agentKey.toSuiAddress()), 0n)
      }))

    it.effect("without a gas station the agent pays its own gas, expiring at the current epoch, and the gateway settles it", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        upstream.failing = false
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const grant = manifest.grants[0]
        if (grant === undefined) return assert.fail("no grant in the manifest")
        const required = decodePaymentRequiredHeader(
          yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
        )
        const raw = required.accepts.find((o) => o.scheme === "exact")
        const offer = findExactOffer(required.accepts)
        if (raw === undefined || offer === undefined) return assert.fail("no exact offer")
        const { gasStation: _station, ...extra } = offer.extra
        const unsponsored = { ...offer, extra }

        const signed = yield* signFirstPayment({
          pkg: packageOf(manifest),
          signer: agentKey,
          client: ledger.client,
          grant,
          offer: unsponsored,
          amount: 40n,
          gatewayOrigin: new URL(manifest.apiBaseUrl).origin
        })
        const data = bcs.TransactionData.parse(fromBase64(signed.transaction)).V1
        const agent = normalizeSuiAddress(agentKey.toSuiAddress())
        assert.strictEqual(normalizeSuiAddress(data.sender), agent)
        assert.strictEqual(normalizeSuiAddress(data.gasData.owner ?? ""), agent, "the agent pays its own gas")
        const expiresIn = data.expiration.$kind === "Epoch" ? BigInt(data.expiration.Epoch) : undefined
        assert.strictEqual(expiresIn, yield* currentEpoch(ledger.client), "it expires at the current epoch")

        const pool = yield* poolBalance(grant.pool)
        const credential = encodePaymentSignatureHeader({
          x402Version: 2,
          accepted: { ...raw, extra: { ...raw.extra, gasStation: undefined } },
          payload: { signature: signed.signature, transaction: signed.transaction }
        })
        const answered = yield* Effect.promise(() => fetch(entry.resourceUrl, { headers: { "payment-signature": credential } }))
        assert.strictEqual(answered.status, 200)
        assert.strictEqual(pool - (yield* poolBalance(grant.pool)), 40n)
      }))

    it.effect("payment: \"upfront\" still executes the payment first and presents its digest", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        upstream.failing = false
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const pool = manifest.grants[0]?.pool ?? ""
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client, payment: "upfront" })
        const before = yield* poolBalance(pool)

        const paid = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(paid.response.status, 200)
        assert.isTrue(paid.charged)
        const presented = decodePaymentSignatureHeader(paid.credential ?? "")
        assert.strictEqual(presented.accepted.scheme, "sui-delegate")
        assert.strictEqual(presented.payload["digest"], paid.digest)
        assert.strictEqual(before - (yield* poolBalance(pool)), 40n)
      }))
  })
})
