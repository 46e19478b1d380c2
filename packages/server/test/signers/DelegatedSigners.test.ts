import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { failsWith } from "../support/Assertions.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const SUI = CoinType.make("0x2::sui::SUI")
const amount = (n: bigint) => PositiveAtomicAmount.make(n.toString())

describe("delegated signers", () => {
  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("walks create, finalize, pause, resume and revoke with two assets, verified on chain", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        const agent = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        const session = yield* signIn(client, owner)
        const asOwner = withOwner(session.authorization)
        const TEST = yield* ledger.newCoinType("TEST")
        for (const coinType of [SUI, TEST]) yield* ledger.fundPool(owner, coinType, 1_000_000n)

        const created = yield* client.delegatedSigners.create({
          headers: { "idempotency-key": "walk-1" },
          payload: {
            agentAddress: agent,
            name: "agent",
            assetScopes: [
              { asset: SUI, totalBudgetAtomic: amount(1000n), maxPerPaymentAtomic: amount(100n) },
              { asset: TEST, totalBudgetAtomic: amount(500n), maxPerPaymentAtomic: amount(50n), expiresAt: null }
            ]
          }
        }).pipe(asOwner)
        assert.strictEqual(created.status, "awaiting_owner_signature")
        assert.strictEqual(created.idempotentReplay, false)
        assert.strictEqual(created.grants.length, 2)
        const [first, second] = created.grants
        if (first === undefined || second === undefined) return assert.fail("two grants")
        const id = created.delegatedSignerId

        const digestA = yield* ledger.execute(first.txKindBytes, owner)
        yield* ledger.checkpoint
        const finalA = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: first.grantId }, payload: { digest: digestA } })
          .pipe(asOwner)
        assert.strictEqual(finalA.status, "active")
        assert.strictEqual(finalA.signerStatus, "partially_active")
        assert.strictEqual(finalA.alreadyFinalized, false)

        const again = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: first.grantId }, payload: { digest: digestA } })
          .pipe(asOwner)
        assert.strictEqual(again.alreadyFinalized, true)

        const digestB = yield* ledger.execute(second.txKindBytes, owner)
        yield* ledger.checkpoint
        const finalB = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: second.grantId }, payload: { digest: digestB } })
          .pipe(asOwner)
        assert.strictEqual(finalB.signerStatus, "active")

        const pause = yield* client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
        assert.strictEqual(pause.status, "pausing")
        assert.strictEqual(pause.grants.length, 2)
        for (const kind of pause.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizePause({ params: { id, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
        }
        assert.strictEqual((yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.status, "paused")

        const resume = yield* client.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner)
        assert.strictEqual(resume.status, "paused")
        for (const kind of resume.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizeResume({ params: { id, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
        }
        assert.strictEqual((yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.status, "active")

        const revoke = yield* client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
        assert.strictEqual(revoke.status, "revoking")
        const statuses: Array<string> = []
        for (const kind of revoke.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          const done = yield* client.delegatedSigners.finalizeRevoke({ params: { id, grantId: kind.grantId }, payload: { digest } })
            .pipe(asOwner)
          statuses.push(done.signerStatus)
        }
        assert.deepStrictEqual(statuses, ["partially_revoked", "revoked"])
        yield* failsWith(client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner), "CONFLICT")
      }))
  })
})
