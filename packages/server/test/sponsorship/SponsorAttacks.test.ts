import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { failsWith } from "../support/Assertions.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { assembled, coinsOf, createRequestFor, fundedWithoutSui, gasOf, ownerWithout, signed, suiOf, withdrawKind } from "./SponsorKit.ts"

const USD = CoinType.make(`0x${randomBytes(32).toString("hex")}::usd::USD`)
const GAS_CAP = 50_000_000
/** LocalLedger's reference gas price. */
const REFERENCE_PRICE = 1000n

// Budgets far above what these tests spend: here only what the sponsor accepts is under test.
const Env = gatewayFor([], {
  supportedAssets: [SUI, USD],
  sponsorGasBudgetMax: GAS_CAP,
  sponsorPerOwnerPerMinute: 1000,
  sponsorGasPerMinute: 10_000_000_000,
  sponsorNewcomerGasPerMinute: 10_000_000_000
})

/** An owner with a funded USD spend account (all through sponsorship) and the gateway's own sponsored bytes for a grant create. */
const withSponsoredGrant = (key: string) =>
  Effect.gen(function*() {
    const funded = yield* fundedWithoutSui(USD)
    const created = yield* funded.client.delegatedSigners.create(createRequestFor(USD, new Ed25519Keypair().toSuiAddress(), key)).pipe(funded.asOwner)
    const grant = created.grants[0]
    if (grant === undefined) return yield* Effect.die(new Error("no grant was prepared"))
    const sponsored = yield* funded.client.sponsorship.sponsor({ payload: { txKindBytes: grant.txKindBytes } }).pipe(funded.asOwner)
    return { ...funded, kind: grant.txKindBytes, sponsored }
  })

describe("what the sponsor co-signs: only the bytes it built", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("the sponsor's coins all put in one gas payment are refused, and the coins stay apart", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner, kind, sponsored } = yield* withSponsoredGrant("merge")
        const coins = yield* coinsOf(sponsored.sponsor)
        assert.isAbove(coins.length, 1)
        const before = yield* suiOf(sponsored.sponsor)
        const txBytes = yield* assembled(owner.toSuiAddress(), kind, {
          sponsor: sponsored.sponsor,
          payment: coins,
          price: REFERENCE_PRICE,
          budget: gasOf(sponsored.txBytes).budget
        })
        const { signature } = yield* signed(owner, txBytes)
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.strictEqual((yield* coinsOf(sponsored.sponsor)).length, coins.length, "no coin was merged")
        assert.strictEqual(yield* suiOf(sponsored.sponsor), before)
      }))

    it.effect("a gas price above the reference gas price is refused and costs the sponsor nothing", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner, kind, sponsored } = yield* withSponsoredGrant("price")
        const before = yield* suiOf(sponsored.sponsor)
        const txBytes = yield* assembled(owner.toSuiAddress(), kind, {
          sponsor: sponsored.sponsor,
          payment: gasOf(sponsored.txBytes).payment,
          price: 45n * REFERENCE_PRICE,
          budget: 45_000_000n
        })
        const { signature } = yield* signed(owner, txBytes)
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.strictEqual(yield* suiOf(sponsored.sponsor), before)
      }))

    it.effect("a budget above the gateway's own simulation is refused, though under SPONSOR_GAS_BUDGET_MAX", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner, sponsored } = yield* withSponsoredGrant("budget")
        assert.isBelow(Number(gasOf(sponsored.txBytes).budget), GAS_CAP)
        assert.strictEqual(gasOf(sponsored.txBytes).price, REFERENCE_PRICE, "the gateway builds at the reference gas price")
        const before = yield* suiOf(sponsored.sponsor)
        const raised = Transaction.from(fromBase64(sponsored.txBytes))
        raised.setGasBudget(GAS_CAP)
        const txBytes = toBase64(yield* Effect.promise(() => raised.build()))
        const { signature } = yield* signed(owner, txBytes)
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.strictEqual(yield* suiOf(sponsored.sponsor), before)
      }))

    it.effect("bytes the gateway did not build are refused, even on a sponsor coin at its price and budget; its own bytes execute once", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner, kind, sponsored } = yield* withSponsoredGrant("foreign")
        const gas = gasOf(sponsored.txBytes)
        const other = (yield* coinsOf(sponsored.sponsor)).find((c) => !gas.payment.some((p) => p.objectId === c.objectId))
        if (other === undefined) return assert.fail("the sponsor holds one coin")
        const before = yield* suiOf(sponsored.sponsor)
        const txBytes = yield* assembled(owner.toSuiAddress(), kind, { sponsor: sponsored.sponsor, payment: [other], price: gas.price, budget: gas.budget })
        const { signature } = yield* signed(owner, txBytes)
        const refused = yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.match(refused.reason, /^txBytes/)
        assert.strictEqual(yield* suiOf(sponsored.sponsor), before)

        const own = yield* signed(owner, sponsored.txBytes)
        const executed = yield* client.sponsorship.execute({ payload: { txBytes: sponsored.txBytes, signature: own.signature } }).pipe(asOwner)
        assert.strictEqual(executed.status, "success")
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes: sponsored.txBytes, signature: own.signature } }).pipe(asOwner), "INVALID")
      }))

    it.effect("a call that would abort is refused, assembled or built, and before co-signing: the sponsor pays nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner, pool, sponsored } = yield* withSponsoredGrant("abort")
        const sponsor = sponsored.sponsor
        const before = yield* suiOf(sponsor)

        // A freshly signed-in stranger with 0 MIST withdraws from someone else's pool: it aborts on chain (ENotOwner).
        const stranger = yield* ownerWithout(yield* makeApiClient(yield* BaseUrl), USD)
        const theft = yield* withdrawKind(stranger.owner.toSuiAddress(), pool, USD, 1n)
        const assembledTheft = yield* assembled(stranger.owner.toSuiAddress(), theft, {
          sponsor,
          payment: gasOf(sponsored.txBytes).payment,
          price: REFERENCE_PRICE,
          budget: 45_000_000n
        })
        const theftSigned = yield* signed(stranger.owner, assembledTheft)
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes: assembledTheft, signature: theftSigned.signature } }).pipe(stranger.asOwner), "INVALID")
        yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes: theft } }).pipe(stranger.asOwner), "INVALID")

        // The owner's own withdraw, built while it would succeed, then made to abort by draining the pool with the owner's own gas.
        const withdraw = yield* withdrawKind(owner.toSuiAddress(), pool, USD, 400_000n)
        const built = yield* client.sponsorship.sponsor({ payload: { txKindBytes: withdraw } }).pipe(asOwner)
        const builtSigned = yield* signed(owner, built.txBytes)
        yield* ledger.gas(owner.toSuiAddress())
        yield* ledger.execute(yield* withdrawKind(owner.toSuiAddress(), pool, USD, 500_000n), owner)
        yield* ledger.checkpoint
        const refused = yield* failsWith(client.sponsorship.execute({ payload: { txBytes: built.txBytes, signature: builtSigned.signature } }).pipe(asOwner), "INVALID")
        assert.match(refused.reason, /abort/)
        assert.strictEqual(yield* suiOf(sponsor), before, "no refused or aborting call cost the sponsor gas")
      }))
  })
})
