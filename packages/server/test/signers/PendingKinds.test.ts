import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { createRequest, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

describe("a pending grant's create kind", () => {
  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("is returned by get and list while the grant is pending, signs and finalizes from there, and is gone once active", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        yield* ledger.fundPool(owner, SUI, 1_000_000n)
        const asOwner = withOwner((yield* signIn(client, owner)).authorization)
        const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "pending-kind")).pipe(asOwner)
        const prepared = created.grants[0]
        if (prepared === undefined) return assert.fail("one grant")
        const id = created.delegatedSignerId

        // A page reloaded before signing reads the signer back: the kind is the one create answered.
        const { delegatedSigner } = yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)
        const pending = delegatedSigner.grants[0]
        assert.strictEqual(pending?.status, "pending")
        assert.strictEqual(pending?.createTxKindBytes, prepared.txKindBytes)
        const listed = (yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)).delegatedSigners.find((s) => s.id === id)
        assert.strictEqual(listed?.grants[0]?.createTxKindBytes, prepared.txKindBytes)

        // Signed from what get returned, it finalizes as the create's own kind would.
        const digest = yield* ledger.execute(pending?.createTxKindBytes ?? "", owner)
        yield* ledger.checkpoint
        const final = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: prepared.grantId }, payload: { digest } }).pipe(asOwner)
        assert.strictEqual(final.status, "active")

        const after = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.grants[0]
        assert.strictEqual(after?.status, "active")
        assert.isFalse(after !== undefined && "createTxKindBytes" in after)
      }))
  })
})
