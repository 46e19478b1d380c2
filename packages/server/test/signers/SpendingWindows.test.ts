import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { FetchLayer, type GatewayClient, makeApiClient, withOwner } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { MAX_RECIPIENTS } from "@gateway/domain/chain/SpendAccountModule"
import type { PolicyId } from "@gateway/domain/Ids"
import { SpendingWindow } from "@gateway/domain/SpendingWindow"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { postJson } from "../support/RawPost.ts"
import { failsWith } from "../support/Assertions.ts"
import { pay, refs } from "../support/PayByHand.ts"
import { amount, fundedOwner, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const DAY_MS = 86_400_000

const window = Schema.decodeUnknownSync(SpendingWindow)

const addr = (n: number) => SuiAddress.make(`0x${n.toString(16).padStart(64, "0")}`)

/** A create of one SUI scope (budget 1000, at most 100 a payment) with this window. */
const windowed = (agent: string, key: string, window: SpendingWindow | null, policyIds: ReadonlyArray<PolicyId> = []) => ({
  headers: { "idempotency-key": key },
  payload: {
    agentAddress: SuiAddress.make(agent),
    policyIds,
    assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(1000n), maxPerPaymentAtomic: amount(100n), window }]
  }
})

/** Nothing of a refused create was written: the owner has no signer. */
const noSigners = (client: GatewayClient, asOwner: ReturnType<typeof withOwner>) =>
  Effect.map(client.delegatedSigners.list({ query: {} }).pipe(asOwner), ({ delegatedSigners }) => assert.deepStrictEqual(delegatedSigners, []))

describe("spending windows and on-chain recipients", () => {
  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("a create with a daily window round-trips into the views and the manifest, its spending read from the chain", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const ledger = yield* TestLedger
        const { owner, asOwner } = yield* fundedOwner(client)
        const agentKey = new Ed25519Keypair()
        yield* ledger.gas(agentKey.toSuiAddress())

        const created = yield* client.delegatedSigners.create(windowed(agentKey.toSuiAddress(), "window-1", window({ limitAtomic: "300", period: "day" })))
          .pipe(asOwner)
        const id = created.delegatedSignerId
        const [grant] = created.grants
        if (grant === undefined) return assert.fail("one grant")
        const pending = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.grants[0]
        // Not on chain yet: the terms, without figures.
        assert.deepStrictEqual<unknown>(pending?.window, { limitAtomic: "300", period: "day", periodMs: DAY_MS })
        assert.deepStrictEqual(pending?.recipients, [])
        assert.strictEqual(pending?.spentThisWindowAtomic, null)
        assert.strictEqual(pending?.windowResetsAt, null)

        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
        const manifest = yield* client.delegatedSigners.manifest({ params: { id } }).pipe(asOwner)
        assert.deepStrictEqual<unknown>(manifest.grants[0]?.window, { limitAtomic: "300", period: "day", periodMs: DAY_MS })
        assert.deepStrictEqual(manifest.grants[0]?.recipients, [])

        // Paid on chain without the gateway: the chain is the truth for the window.
        yield* pay({ agentKey, ...refs(manifest), amount: 80n, recipient: addr(0x77), nonce: "outside the gateway" })
        const before = Date.now()
        const { delegatedSigners } = yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)
        const listed = delegatedSigners[0]?.grants[0]
        assert.strictEqual(listed?.spentThisWindowAtomic, "80")
        const resetsAt = Date.parse(listed?.windowResetsAt ?? "")
        assert.isTrue(resetsAt > before && resetsAt <= before + DAY_MS, listed?.windowResetsAt ?? "no reset time")
        const got = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.grants[0]
        assert.deepStrictEqual(
          { window: got?.window, spent: got?.spentThisWindowAtomic, resetsAt: got?.windowResetsAt },
          { window: listed?.window, spent: "80", resetsAt: listed?.windowResetsAt }
        )
      }))

    it.effect("an invalid window is INVALID with the spec's body, naming the field, and nothing is written", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { session, asOwner } = yield* fundedOwner(client)
        const agent = new Ed25519Keypair().toSuiAddress()
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ limitAtomic: "99", period: "day" }, "body.assetScopes.0.window.limitAtomic: must be at least maxPerPaymentAtomic (100)"],
          [{ limitAtomic: "1001", period: "week" }, "body.assetScopes.0.window.limitAtomic: must not exceed totalBudgetAtomic (1000)"],
          [{ limitAtomic: "300", periodMs: 59_999 }, "body.assetScopes.0.window.periodMs: must be between 60000 (a minute) and 31622400000 (366 days) milliseconds"],
          [{ limitAtomic: "300", periodMs: 31_622_400_001 }, "body.assetScopes.0.window.periodMs: must be between 60000 (a minute) and 31622400000 (366 days) milliseconds"],
          [{ limitAtomic: "300", period: "day", periodMs: DAY_MS }, "body.assetScopes.0.window.period: give exactly one of period (hour, day, week, calendar_month) and periodMs"],
          [{ limitAtomic: "300" }, "body.assetScopes.0.window.period: give exactly one of period (hour, day, week, calendar_month) and periodMs"]
        ]
        for (const [bad, reason] of cases) {
          // Sent as JSON, as any client would: the typed client refuses to encode an invalid window itself.
          const answer = yield* postJson(`${baseUrl}/v1/delegated-signers`, {
            agentAddress: agent,
            assetScopes: [{ asset: SUI, totalBudgetAtomic: "1000", maxPerPaymentAtomic: "100", window: bad }]
          }, { headers: { authorization: session.authorization, "idempotency-key": "bad-window" } })
          assert.strictEqual(answer.status, 400)
          // The message names the field to fix, the reason says where and what.
          const field = reason.slice(0, reason.indexOf(":"))
          assert.deepStrictEqual(answer.body, { ok: false, code: "INVALID", message: `The request is invalid: fix ${field} (see reason)`, reason })
        }
        yield* noSigners(client, asOwner)
        // The key was never stored: a valid create may use it.
        const ok = yield* client.delegatedSigners.create(windowed(agent, "bad-window", window({ limitAtomic: "100", period: "calendar_month" }))).pipe(asOwner)
        assert.strictEqual(ok.idempotentReplay, false)
      }))

    it.effect("policies allowing 17 recipients refuse the create, naming the bound; 16 are listed on chain", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const ledger = yield* TestLedger
        const agent = new Ed25519Keypair().toSuiAddress()
        const rule = (recipients: ReadonlyArray<number>) => ({ serviceIds: [], methods: [], paths: [], recipients: recipients.map(addr), assets: [] })
        const sixteen = Array.from({ length: MAX_RECIPIENTS }, (_, i) => i + 1)
        const many = yield* client.policies.createPolicy({ payload: { name: "sixteen", rule: rule(sixteen) } }).pipe(asOwner)
        const more = yield* client.policies.createPolicy({ payload: { name: "one more", rule: rule([MAX_RECIPIENTS + 1]) } }).pipe(asOwner)

        const error = yield* failsWith(client.delegatedSigners.create(windowed(agent, "too-many", null, [many.id, more.id])).pipe(asOwner), "INVALID")
        assert.include(error.reason, `allow ${MAX_RECIPIENTS + 1} recipients`)
        assert.include(error.reason, `at most ${MAX_RECIPIENTS} on chain (MAX_RECIPIENTS)`)
        yield* noSigners(client, asOwner)

        // Sixteen fit: the grant lists them, and the chain's GrantCreated is verified against them at finalize.
        const created = yield* client.delegatedSigners.create(windowed(agent, "sixteen", null, [many.id])).pipe(asOwner)
        const [grant] = created.grants
        if (grant === undefined) return assert.fail("one grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const done = yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
          .pipe(asOwner)
        assert.strictEqual(done.status, "active")
        const view = (yield* client.delegatedSigners.get({ params: { id: created.delegatedSignerId } }).pipe(asOwner)).delegatedSigner.grants[0]
        assert.deepStrictEqual(view?.recipients, sixteen.map(addr))
        assert.strictEqual(view?.window, null)
      }))

    it.effect("policies none of which allows the scope's asset refuse the create: on chain the grant would pay anyone", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { asOwner } = yield* fundedOwner(client)
        const agent = new Ed25519Keypair().toSuiAddress()
        const otherAsset = CoinType.make(`0x${"a".repeat(64)}::coin::OTHER`)
        const policy = yield* client.policies.createPolicy({
          payload: { name: "other coin only", rule: { serviceIds: [], methods: [], paths: [], recipients: [addr(1)], assets: [otherAsset] } }
        }).pipe(asOwner)
        const error = yield* failsWith(client.delegatedSigners.create(windowed(agent, "no-asset", null, [policy.id])).pipe(asOwner), "INVALID")
        assert.include(error.reason, "no attached policy allows")
        yield* noSigners(client, asOwner)
      }))
  })
})
