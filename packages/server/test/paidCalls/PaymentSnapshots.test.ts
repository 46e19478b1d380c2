import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { amount, fundedOwner, grantedAgent, paidCallEnv, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const Env = paidCallEnv()

describe("payment listings show what each payment was made under", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("after the seller edits the service and the revision and grant rows change underneath, both listings are unchanged", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const sql = yield* SqlClient.SqlClient
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        const terms = { name: "Answers", description: "the answer", method: "GET", path: "/answer", price: amount(40n), asset: SUI, decimals: 9, payTo, upstreamUrl: upstream.url } as const
        const { service } = yield* client.sellers.register({ payload: terms }).pipe(asSeller)
        const entry = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service
        const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, { key: `snapshots-${entry.id}`, budget: 1000n, perPayment: 100n })
        const paid = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client }).fetchPaid(entry.resourceUrl)
        assert.strictEqual(paid.response.status, 200)

        const listings = Effect.all({
          owner: client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(asOwner),
          seller: client.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(asSeller)
        })
        const before = yield* listings
        const shown = before.owner.payments[0]
        assert.deepStrictEqual(before.owner.payments.map((p) => p.digest), [paid.digest])
        assert.strictEqual(shown?.serviceName, "Answers")
        assert.strictEqual(shown?.asset, SUI)
        assert.strictEqual(shown?.recipient, payTo)
        assert.strictEqual(shown?.grantId, manifest.grants[0]?.grantId)
        assert.deepStrictEqual(before.seller.payments, before.owner.payments)

        // The seller renames the service and moves its recipient; the new revision goes live.
        const movedTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        yield* client.sellers.edit({ params: { id: entry.id }, payload: { ...terms, name: "Renamed", payTo: movedTo } }).pipe(asSeller)
        const edited = yield* client.sellers.activate({ params: { id: entry.id } }).pipe(asSeller)
        assert.strictEqual(edited.service.name, "Renamed")
        // And the rows a listing used to join change too: the paid revision's terms and the grant's asset.
        const rewritten = JSON.stringify({ name: "Rewritten", asset: "0x2::other::OTHER", payTo: movedTo })
        yield* sql`UPDATE service_revisions SET terms = (terms::jsonb || ${rewritten}::jsonb)::text
            WHERE service_id = ${entry.id} AND revision = ${entry.activeRevision}`
        yield* sql`UPDATE grants SET coin_type = '0x2::other::OTHER' WHERE signer_id = ${signerId}`

        assert.deepStrictEqual(yield* listings, before)
      }))
  })
})
