import { assert, describe, layer } from "@effect/vitest"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Mppx } from "mppx/client"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../../server/test/support/Scenario.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../server/test/support/TestServer.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { suiSignFirstMethod } from "../src/mpp/SuiSignFirstMethod.ts"
import { suiMethod } from "../src/mpp/SuiMethod.ts"
import { paidFetch } from "../src/PaidFetch.ts"
import { suiX402Client } from "../src/x402/SuiX402Client.ts"
import { poolBalance } from "./support/PoolBalance.ts"

/** What the owner's grant says, in the words a developer can act on; never x402's spend controls, which they did not set. */
const OVER_CAP = /the service asks 50000 atomic units of \S+::sui::SUI, above your grant's maxPerPayment 30000; ask the owner to raise it/

/** A 50000-MIST service and an agent whose grant pays at most 30000 per payment: the README's clients, as written. */
const overCapAgent = Effect.gen(function*() {
  const upstream = yield* Upstream
  const ledger = yield* TestLedger
  const client = yield* makeApiClient(yield* BaseUrl)
  const { owner, asOwner } = yield* fundedOwner(client)
  const { entry } = yield* liveService(client, { price: 50_000n, upstreamUrl: upstream.url })
  const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: `over-cap-${entry.id}`, budget: 500_000n, perPayment: 30_000n })
  const payer = { signer: agentKey, manifest, client: ledger.client }
  return { upstream, entry, manifest, payer, pool: manifest.grants[0]?.pool ?? "" }
})

/** The call's rejection message, or "answered" if it was paid. */
const refusal = (call: () => Promise<Response>) => Effect.promise(() => call().then((r) => `answered ${r.status}`, (e: Error) => e.message))

describe("@gateway/sui-pay: a price above the grant's per-payment cap is refused naming the grant's limit", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("x402 (suiX402Client) and MPP (sign-first and upfront) refuse it before paying, saying whose cap it is and what to do", () =>
      Effect.gen(function*() {
        const { upstream, entry, manifest, payer, pool } = yield* overCapAgent
        const [before, calls] = [yield* poolBalance(pool), upstream.calls.length]

        const x402 = yield* refusal(() => paidFetch(wrapFetchWithPayment(fetch, suiX402Client(payer)))(entry.resourceUrl))
        assert.match(x402, OVER_CAP)
        assert.match(x402, /^Failed to create payment payload: exact: not paid: amount: 50000 exceeds the per-payment cap 30000/)
        assert.notMatch(x402, /spendControls/)

        const signFirst = Mppx.create({ methods: [suiSignFirstMethod({ ...payer, gasStation: `${manifest.apiBaseUrl}/v1/gas-station` })], polyfill: false })
        assert.match(yield* refusal(() => paidFetch(signFirst.fetch)(entry.resourceUrl)), OVER_CAP)
        const upfront = Mppx.create({ methods: [suiMethod(payer)], polyfill: false })
        assert.match(yield* refusal(() => paidFetch(upfront.fetch)(entry.resourceUrl)), OVER_CAP)

        assert.strictEqual(yield* poolBalance(pool), before, "nothing paid")
        assert.strictEqual(upstream.calls.length, calls, "the seller was never called")
      }), { timeout: 30_000 })
  })
})
