import { assert, describe, layer } from "@effect/vitest"
import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { AbortCode, normalizeCoinType, poolIdOf, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { amount, liveService, paidCallEnv, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const DAY_MS = 86_400_000
const PRICE = 100n
/** At most three calls a day; each grant may pay ten in all. */
const DAILY_LIMIT = 300n

/**
 * Issue 25: an owner whose funds are only in its address balance (no coin
 * objects at all, the way stablecoins received gaslessly arrive) funds its
 * spend accounts and creates a two-asset signer with a daily window; the
 * agent pays until the window is used up, the next payment is refused by the
 * SDK and by the chain, and the next day it pays again.
 */
describe("an owner with funds only in its address balance, and a daily window", () => {
  // Challenges outlive the day the ledger's Clock is moved on by, so a payment made "tomorrow" still answers today's quote.
  layer(paidCallEnv({ paymentChallengeSeconds: 3 * DAY_MS / 1000 }), { excludeTestServices: true })((it) => {
    it.effect("funds, creates, pays to the limit, is refused by the SDK and the chain, and pays again the next day", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const local = yield* LocalLedger
        const upstream = yield* Upstream
        const client = yield* makeApiClient(yield* BaseUrl)
        const owner = new Ed25519Keypair()
        const USD = yield* ledger.newCoinType("USD")

        // A funder sends SUI and USD into the owner's address balance: the owner holds no coin object.
        const funder = new Ed25519Keypair()
        yield* ledger.gas(funder.toSuiAddress())
        const usdCoin = yield* local.mint(funder.toSuiAddress(), USD, 5_000n)
        yield* sendFunds(ledger, funder, owner.toSuiAddress(), [
          { coinType: SUI_COIN_TYPE, split: 3_000_000_000n },
          { coinType: USD, objectId: usdCoin.id }
        ])
        const coins = yield* Effect.promise(() => ledger.client.core.listCoins({ owner: owner.toSuiAddress() }))
        assert.lengthOf(coins.objects, 0, "the owner holds no SUI coin")
        const usdBalance = yield* Effect.promise(() => ledger.client.core.getBalance({ owner: owner.toSuiAddress(), coinType: USD }))
        assert.deepStrictEqual([usdBalance.balance.coinBalance, usdBalance.balance.addressBalance], ["0", "5000"])

        // Both spend accounts are funded from the address balance (gas too).
        const asOwner = withOwner((yield* signIn(client, owner)).authorization)
        for (const asset of [SUI, USD]) {
          const kind = yield* client.spendAccounts.prepare({ payload: { asset, depositAtomic: amount(2_000n) } }).pipe(asOwner)
          yield* ledger.execute(kind.txKindBytes, owner)
        }
        yield* ledger.checkpoint
        for (const asset of [SUI, USD]) {
          const pool = Structs.Pool.parse(yield* ledger.contents(poolIdOf(ledger.pkg, owner.toSuiAddress(), asset)))
          assert.strictEqual(pool.balance.value, "2000", `the ${asset} spend account`)
        }

        // A two-asset signer, each scope at most 300 a day.
        const agentKey = new Ed25519Keypair()
        yield* ledger.gas(agentKey.toSuiAddress())
        const scope = (asset: typeof SUI) => ({
          asset,
          totalBudgetAtomic: amount(1_000n),
          maxPerPaymentAtomic: amount(PRICE),
          window: { limitAtomic: amount(DAILY_LIMIT), period: "day" as const }
        })
        const created = yield* client.delegatedSigners.create({
          headers: { "idempotency-key": "address-balance-window" },
          payload: { agentAddress: SuiAddress.make(agentKey.toSuiAddress()), assetScopes: [scope(SUI), scope(USD)] }
        }).pipe(asOwner)
        assert.lengthOf(created.grants, 2)
        for (const grant of created.grants) {
          const digest = yield* ledger.execute(grant.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
            .pipe(asOwner)
        }
        const manifest = yield* client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
        const suiGrant = manifest.grants.find((g) => normalizeCoinType(g.coinType) === normalizeCoinType(SUI))
        if (suiGrant === undefined) return assert.fail("no SUI grant in the manifest")

        const { entry, payTo } = yield* liveService(client, { price: PRICE, upstreamUrl: upstream.url })
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        for (let i = 0; i < 3; i++) {
          const paid = yield* agent.fetchPaid(entry.resourceUrl)
          assert.strictEqual(paid.response.status, 200, `call ${i + 1} of the day`)
        }

        // The fourth call of the day: the SDK refuses before paying …
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.strictEqual(refused._tag, "PaymentRefused")
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /window/)
        // … and so does the chain, for a payment built by hand.
        const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
        const kind = yield* Effect.promise(() =>
          Kinds.pay(ledger.pkg, {
            sender: agentKey.toSuiAddress(),
            registry,
            grant: { objectId: suiGrant.grantObjectId, initialSharedVersion: BigInt(suiGrant.grantInitialSharedVersion) },
            pool: { objectId: suiGrant.pool, initialSharedVersion: BigInt(suiGrant.poolInitialSharedVersion) },
            coinType: SUI_COIN_TYPE,
            amount: PRICE,
            recipient: payTo,
            memo: memoOf("by-hand")
          })
        )
        const digest = yield* ledger.executeAsIs(kind.txKindBytes, agentKey)
        const read = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest }))
        const error = read.$kind === "FailedTransaction" && !read.FailedTransaction.status.success ? read.FailedTransaction.status.error : undefined
        assert.strictEqual(error?.$kind, "MoveAbort")
        assert.strictEqual(error?.$kind === "MoveAbort" ? Number(error.MoveAbort.abortCode) : -1, AbortCode.EExceedsWindowLimit)

        // The next day the window has room again.
        yield* local.setFaults({ clockAheadMs: DAY_MS })
        const nextDay = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(nextDay.response.status, 200)
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults({ clockAheadMs: 0 })))))
  })
})

/** One transaction from `from`: each coin (split from gas, or a whole coin object) sent into `to`'s address balance. */
const sendFunds = (
  ledger: TestLedger["Service"],
  from: Signer,
  to: string,
  sends: ReadonlyArray<{ readonly coinType: string; readonly split?: bigint; readonly objectId?: string }>
) =>
  Effect.gen(function*() {
    const tx = new Transaction()
    tx.setSender(from.toSuiAddress())
    for (const send of sends) {
      const coin = send.split === undefined ? tx.object(send.objectId ?? "") : tx.splitCoins(tx.gas, [send.split])[0]
      if (coin === undefined) return yield* Effect.die("no coin to send")
      tx.moveCall({ target: "0x2::coin::send_funds", typeArguments: [send.coinType], arguments: [coin, tx.pure.address(to)] })
    }
    const result = yield* Effect.promise(() => ledger.client.signAndExecuteTransaction({ transaction: tx, signer: from }))
    if (result.$kind !== "Transaction") return yield* Effect.die(`send_funds failed: ${JSON.stringify(result.FailedTransaction.status)}`)
    yield* Effect.promise(() => ledger.client.core.waitForTransaction({ digest: result.Transaction.digest }))
    yield* ledger.checkpoint
  })
