import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { makeAgent } from "@gateway/client/AgentSdk"
import { makeApiClient } from "@gateway/client"
import { SpendingWindow } from "@gateway/domain/SpendingWindow"
import { findSuiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { payingFor } from "../src/PaidRequest.ts"
import { makeSuiPayer } from "../src/SuiPayer.ts"

/**
 * The agent's side of a grant's window: the SDK and the scheme package read
 * the grant on chain before paying and refuse, without paying gas, a payment
 * its window would refuse (payments made elsewhere count too).
 */
describe("the SDK refuses what the grant's window would refuse", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("pays within the daily window, then refuses locally, naming what is left and until when", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const { entry } = yield* liveService(client, { price: 80n, upstreamUrl: upstream.url })
        const window = Schema.decodeUnknownSync(SpendingWindow)({ limitAtomic: "150", period: "day" })
        const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: "sdk-window", budget: 1000n, perPayment: 100n, window })
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })

        const first = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(first.response.status, 200)
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.strictEqual(refused._tag, "PaymentRefused")
        if (refused._tag !== "PaymentRefused") return
        assert.match(refused.reason, /^window: 80 exceeds the 70 left of the grant's 150 per window for 0x2::sui::SUI, until \d{4}-/)
        assert.isUndefined(refused.digest, "refused before anything reached the chain")

        // The scheme package's payer refuses it the same way.
        const payer = makeSuiPayer({ signer: agentKey, manifest, client: ledger.client })
        const answer = yield* Effect.promise(() => fetch(entry.resourceUrl))
        const offer = findSuiDelegateOffer(decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "").accepts)
        if (offer === undefined) return assert.fail("a sui-delegate offer")
        const failure = yield* Effect.promise(() =>
          payingFor({ url: new URL(entry.resourceUrl), method: "GET" }, () => payer.pay(offer)).then(() => "paid", (e: unknown) => String(e))
        )
        assert.match(failure, /sui-delegate: window: 80 exceeds the 70 left/)
      }))
  })
})
