import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makeAgent } from "@gateway/client/AgentSdk"
import { gatewayFor, paidService } from "../support/PaidEnv.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"
import { checkHistogram, parsePrometheusText, sampleValue } from "./PrometheusText.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

const scrape = Effect.gen(function*() {
  const baseUrl = yield* BaseUrl
  const body = yield* Effect.promise(() => fetch(`${baseUrl}/metrics`).then((r) => r.text()))
  return parsePrometheusText(body)
})

/**
 * The chain and the sponsor in `/metrics`: every call to the node timed by method and outcome, the sponsor's
 * balance and coins as last read, and the gas it paid by purpose. One sign-first paid call (the gas station
 * builds it, the gateway simulates and executes it) moves each. The registry is the process's: differences.
 */
describe("chain and sponsor metrics", () => {
  layer(env, { excludeTestServices: true })((it) => {
    it.effect("a sponsored sign-first paid call shows in the chain calls' timings, the sponsor's gauges and its gas spent on payments", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const before = yield* scrape
        const simulated = (families: typeof before) =>
          sampleValue(families, "gateway_chain_call_duration_seconds_count", { method: "simulateTransaction", outcome: "ok" }) ?? 0
        const spent = (families: typeof before) => sampleValue(families, "gateway_sponsor_gas_spent_mist_total", { purpose: "payment" }) ?? 0

        const { response, receipt } = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client }).fetchPaid(entry.resourceUrl)
        assert.strictEqual(response.status, 200)
        assert.isTrue(receipt?.success)

        const after = yield* scrape
        assert.isAbove(simulated(after), simulated(before), "the settlement's simulation was timed")
        const duration = after.find((f) => f.name === "gateway_chain_call_duration_seconds")
        if (duration === undefined) return assert.fail("no gateway_chain_call_duration_seconds")
        assert.strictEqual(duration.type, "histogram")
        checkHistogram(duration)
        assert.isAbove(spent(after), spent(before), "the sponsor's gas for the payment was counted")
        assert.isAbove(sampleValue(after, "gateway_sponsor_balance_mist", {}) ?? 0, 0)
        assert.isAbove(sampleValue(after, "gateway_sponsor_coins", {}) ?? 0, 0)
      }))
  })
})
