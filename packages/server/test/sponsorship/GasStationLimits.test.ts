import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { expectRateLimited, failsWith } from "../support/Assertions.ts"
import { awayFromMinuteEdge } from "../support/RawPost.ts"
import { fundedOwner } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { askStation, gasStationEnv, granteeWithoutSui, payKind, settle, transferKind } from "./GasStationKit.ts"

const address = (key: Ed25519Keypair) => SuiAddress.make(normalizeSuiAddress(key.toSuiAddress()))

/** A payer with SUI of its own and the kind of a plain transfer of 40 MIST it would ask the gas station for. */
const payerWithTransfer = Effect.gen(function*() {
  const ledger = yield* TestLedger
  const payer = address(new Ed25519Keypair())
  yield* ledger.gas(payer)
  yield* ledger.checkpoint
  return { payer, kind: yield* transferKind(payer, address(new Ed25519Keypair()), 40n) }
})

/** A gas budget's refusal: 429 with `reason`, the spec's body, and a Retry-After up to the day's end. */
const expectBudgetUsed = (answer: { readonly status: number; readonly headers: Readonly<Record<string, unknown>>; readonly body: unknown }, reason: string) => {
  assert.strictEqual(answer.status, 429, JSON.stringify(answer.body))
  assert.deepInclude(answer.body, { ok: false, code: "RATE_LIMITED", reason })
  const retryAfter = Number(answer.headers["retry-after"])
  assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 24 * 60 * 60, `Retry-After: ${String(answer.headers["retry-after"])}`)
}

/** A grant payment's build on LocalLedger budgets about 8.46M MIST and spends about 2.01M; a plain transfer's budgets about 4.87M. */
const GRANT_OWNER_DAY = 12_000_000
const PAYER_DAY = 7_000_000
/** Everyone's payments a minute: room for two transfers' builds, not three. */
const PAYMENTS_MINUTE = 12_000_000

const getJson = (url: string) => Effect.promise(() => fetch(url).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> })))

describe("the gas station's limits", () => {
  // A cap below what any transfer costs (and above a maintenance transaction's share, so the pool still starts).
  layer(gasStationEnv({ sponsorGasBudgetMax: 1_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("a payment whose simulated gas is above SPONSOR_GAS_BUDGET_MAX is refused as over the cap", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const { payer, kind } = yield* payerWithTransfer
        const answer = yield* askStation(baseUrl, kind, payer)
        assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
        assert.deepStrictEqual(Object.keys(answer.body).sort(), ["code", "message", "ok", "reason"])
        assert.deepInclude(answer.body, { ok: false, code: "INVALID" })
        assert.match(String(answer.body["reason"]), /^gas: the call costs \d+ MIST, over the cap 1000000$/)
      }))
  })

  // The owners' own per-minute rate is far below: the gas station's rate is a setting of its own.
  layer(gasStationEnv({ sponsorPaymentRequestsPerPayerPerMinute: 2, sponsorPerOwnerPerMinute: 1 }), { excludeTestServices: true })((it) => {
    it.effect("a payer gets at most SPONSOR_PAYMENT_REQUESTS_PER_PAYER_PER_MINUTE gas-station requests a minute (429 with Retry-After), refused ones included; another payer is not held back", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { payer, kind } = yield* payerWithTransfer
        yield* awayFromMinuteEdge()
        assert.strictEqual((yield* askStation(baseUrl, kind, payer)).status, 200)
        assert.strictEqual((yield* askStation(baseUrl, toBase64(new Uint8Array([0])), payer)).status, 400)
        expectRateLimited(yield* askStation(baseUrl, kind, payer), "gas_station_rate_limited")
        const typed = yield* failsWith(client.gasStation.sponsor({ payload: { transactionKind: kind, sender: payer } }), "RATE_LIMITED")
        assert.strictEqual(typed.reason, "gas_station_rate_limited")
        const other = yield* payerWithTransfer
        assert.strictEqual((yield* askStation(baseUrl, other.kind, other.payer)).status, 200)
      }))

    it.effect("with the sponsor above the default floor /health says nothing of it", () =>
      Effect.gen(function*() {
        const health = yield* getJson(`${yield* BaseUrl}/health`)
        assert.strictEqual(health.status, 200)
        assert.notProperty(health.body, "sponsor")
      }))
  })

  // Every grant payment's gas is charged to its grant owner: the agent's own day (1 MIST) and the owners' own
  // sponsorship budgets (1 MIST a minute) would refuse any payment outright, were they what a payment takes from.
  layer(
    gasStationEnv({ sponsorPaymentGasPerGrantOwnerPerDay: GRANT_OWNER_DAY, sponsorPaymentGasPerPayerPerDay: 1, sponsorGasPerMinute: 1, sponsorNewcomerGasPerMinute: 1 }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("a grant payment's gas counts against its grant owner's day: two agents of one owner share it, another owner's agent is not held back, and unspent gas comes back", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const payTo = address(new Ed25519Keypair())
        const paymentOf = (agent: Effect.Success<ReturnType<typeof granteeWithoutSui>>, memo: string) =>
          payKind({ agent: agent.agent, grant: agent.grant, pool: agent.pool, amount: 40n, recipient: payTo, memo })
        const first = yield* granteeWithoutSui(client, owner, asOwner, "owner-day-first")
        const second = yield* granteeWithoutSui(client, owner, asOwner, "owner-day-second")

        const built = yield* askStation(baseUrl, yield* paymentOf(first, "first"), first.agent)
        assert.strictEqual(built.status, 200, JSON.stringify(built.body))
        // The second agent has a day of its own untouched, but its payments are its owner's: one more build is over the owner's day.
        const secondKind = yield* paymentOf(second, "second")
        expectBudgetUsed(yield* askStation(baseUrl, secondKind, second.agent), "sponsor_grant_owner_budget")

        const other = yield* fundedOwner(client)
        const stranger = yield* granteeWithoutSui(client, other.owner, other.asOwner, "owner-day-other")
        assert.strictEqual((yield* askStation(baseUrl, yield* paymentOf(stranger, "other"), stranger.agent)).status, 200)

        // Settled, the first payment keeps only what it spent: the owner's day has room for the second agent again.
        yield* settle(first.agentKey, String(built.body["transaction"]))
        assert.strictEqual((yield* askStation(baseUrl, secondKind, second.agent)).status, 200)
      }))

    it.effect("a plain transfer is charged to its payer, whose day here cannot hold any payment", () =>
      Effect.gen(function*() {
        const { payer, kind } = yield* payerWithTransfer
        const answer = yield* askStation(yield* BaseUrl, kind, payer)
        assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
        assert.match(String(answer.body["reason"]), /^gas: this call's budget of \d+ MIST is more than the whole of its sponsorship budget \(sponsor_payer_budget\)$/)
      }))
  })

  // The grant owners' day cannot hold any payment: a plain transfer takes nothing from it.
  layer(gasStationEnv({ sponsorPaymentGasPerPayerPerDay: PAYER_DAY, sponsorPaymentGasPerGrantOwnerPerDay: 1 }), { excludeTestServices: true })((it) => {
    it.effect("a plain transfer's gas counts against its payer's day: a second transfer of the same payer is refused, another payer's is not", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const { payer, kind } = yield* payerWithTransfer
        assert.strictEqual((yield* askStation(baseUrl, kind, payer)).status, 200)
        const another = yield* transferKind(payer, address(new Ed25519Keypair()), 41n)
        expectBudgetUsed(yield* askStation(baseUrl, another, payer), "sponsor_payer_budget")
        const other = yield* payerWithTransfer
        assert.strictEqual((yield* askStation(baseUrl, other.kind, other.payer)).status, 200)
      }))
  })

  layer(gasStationEnv({ sponsorPaymentGasPerMinute: PAYMENTS_MINUTE }), { excludeTestServices: true })((it) => {
    it.effect("all payers' payments together take from SPONSOR_PAYMENT_GAS_PER_MINUTE", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const first = yield* payerWithTransfer
        const second = yield* payerWithTransfer
        const third = yield* payerWithTransfer
        yield* awayFromMinuteEdge()
        assert.strictEqual((yield* askStation(baseUrl, first.kind, first.payer)).status, 200)
        assert.strictEqual((yield* askStation(baseUrl, second.kind, second.payer)).status, 200)
        expectRateLimited(yield* askStation(baseUrl, third.kind, third.payer), "sponsor_payment_budget")
      }))
  })

  // A floor far above what the local sponsor is funded with.
  layer(gasStationEnv({ sponsorBalanceFloorMist: 1_000_000_000_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("below SPONSOR_BALANCE_FLOOR_MIST the gas station answers 503 naming the setting, and /health (still 200) shows it", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const { payer, kind } = yield* payerWithTransfer
        const answer = yield* askStation(baseUrl, kind, payer)
        assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
        assert.deepStrictEqual(Object.keys(answer.body).sort(), ["code", "message", "ok", "reason"])
        assert.deepInclude(answer.body, { ok: false, code: "UNAVAILABLE", reason: "sponsor_balance_below_floor" })
        assert.include(String(answer.body["message"]), "SPONSOR_BALANCE_FLOOR_MIST")

        const health = yield* getJson(`${baseUrl}/health`)
        assert.strictEqual(health.status, 200)
        assert.strictEqual(health.body["ok"], true)
        const sponsor = health.body["sponsor"] as Record<string, unknown>
        assert.strictEqual(sponsor["status"], "below_floor")
        assert.strictEqual(sponsor["floorMist"], "1000000000000000")
        assert.isAbove(Number(sponsor["balanceMist"]), 0)
      }))
  })
})
