import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { amount, fundedOwner, grantedAgent, paidCallEnv, SUI } from "../support/Scenario.ts"
import { failsWith } from "../support/Assertions.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const Env = paidCallEnv()

/** A live 40-MIST service, a signer whose agent paid it twice, and the seller's session. */
const twoPayments = Effect.gen(function*() {
  const ledger = yield* TestLedger
  const upstream = yield* Upstream
  const client = yield* makeApiClient(yield* BaseUrl)
  const { owner, session, asOwner } = yield* fundedOwner(client)
  const sellerAuthorization = (yield* signIn(client, new Ed25519Keypair())).authorization
  const asSeller = withOwner(sellerAuthorization)
  const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
  const { service } = yield* client.sellers.register({
    payload: { name: "Answers", description: "the answer", method: "GET", path: "/answer", price: amount(40n), asset: SUI, decimals: 9, payTo, upstreamUrl: upstream.url }
  }).pipe(asSeller)
  const entry = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service
  const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, { key: `payments-${entry.id}`, budget: 1000n, perPayment: 100n })
  // The upfront flow's outcomes (`forwarded`); sign-first outcomes are SignFirstSettlement.test.ts's.
  const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client, payment: "upfront" })
  const first = yield* agent.fetchPaid(entry.resourceUrl)
  const second = yield* agent.fetchPaid(entry.resourceUrl)
  assert.strictEqual(first.response.status, 200)
  assert.strictEqual(second.response.status, 200)
  const grantId = manifest.grants[0]?.grantId
  return { client, authorization: session.authorization, sellerAuthorization, asOwner, asSeller, entry, payTo, signerId, agent, agentKey, grantId, digests: [first.digest, second.digest] }
})

describe("payments history", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("the owner sees both payments newest first with what was paid, to whom, and what became of it", () =>
      Effect.gen(function*() {
        const { client, asOwner, entry, payTo, signerId, agentKey, grantId, digests } = yield* twoPayments
        const { payments, nextCursor } = yield* client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(asOwner)
        assert.strictEqual(nextCursor, null)
        assert.deepStrictEqual(payments.map((p) => p.digest), [digests[1], digests[0]])
        for (const p of payments) {
          assert.strictEqual(p.serviceId, entry.id)
          assert.strictEqual(p.serviceName, "Answers")
          assert.strictEqual(p.amount, "40")
          assert.strictEqual(p.asset, SUI)
          assert.strictEqual(p.recipient, payTo)
          assert.strictEqual(p.payer, agentKey.toSuiAddress())
          assert.strictEqual(p.grantId, grantId)
          assert.deepStrictEqual(p.outcome, { state: "forwarded", reason: null, upstreamStatus: 200 })
          assert.isFalse(Number.isNaN(Date.parse(p.createdAt)))
        }
      }))

    it.effect("pages one at a time through an opaque cursor, and a payment made meanwhile does not shift the pages", () =>
      Effect.gen(function*() {
        const { client, asOwner, signerId, agent, entry, digests } = yield* twoPayments
        const first = yield* client.delegatedSigners.payments({ params: { id: signerId }, query: { limit: 1 } }).pipe(asOwner)
        assert.deepStrictEqual(first.payments.map((p) => p.digest), [digests[1]])
        assert.isNotNull(first.nextCursor)
        const third = yield* agent.fetchPaid(entry.resourceUrl)
        assert.strictEqual(third.response.status, 200)
        const cursor = first.nextCursor ?? ""
        const second = yield* client.delegatedSigners.payments({ params: { id: signerId }, query: { limit: 1, cursor } }).pipe(asOwner)
        assert.deepStrictEqual(second.payments.map((p) => p.digest), [digests[0]])
        assert.strictEqual(second.nextCursor, null)
        const fresh = yield* client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(asOwner)
        assert.deepStrictEqual(fresh.payments.map((p) => p.digest), [third.digest, digests[1], digests[0]])
      }))

    it.effect("the seller sees the same payments for the service; no one else sees either list", () =>
      Effect.gen(function*() {
        const { client, asOwner, asSeller, entry, signerId, digests } = yield* twoPayments
        const sold = yield* client.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(asSeller)
        assert.deepStrictEqual(sold.payments.map((p) => p.digest), [digests[1], digests[0]])

        const stranger = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        yield* failsWith(client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(stranger), "NOT_FOUND")
        yield* failsWith(client.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(stranger), "NOT_FOUND")
        // The payer's owner is not the seller, and the seller is not the signer's owner.
        yield* failsWith(client.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(asOwner), "NOT_FOUND")
        yield* failsWith(client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(asSeller), "NOT_FOUND")
      }))

    it.effect("a seller's payments are private: no shared cache may keep them, and nobody else gets them from one", () =>
      Effect.gen(function*() {
        const { sellerAuthorization, entry } = yield* twoPayments
        const url = `${yield* BaseUrl}/v1/services/${entry.id}/payments`
        const sold = yield* Effect.promise(() => fetch(url, { headers: { authorization: sellerAuthorization } }))
        assert.strictEqual(sold.status, 200)
        const cacheControl = sold.headers.get("cache-control") ?? ""
        assert.isFalse(/public|max-age/.test(cacheControl), `cache-control: ${cacheControl}`)
        assert.isNull(sold.headers.get("etag"))
        const anonymous = yield* Effect.promise(() => fetch(url))
        assert.strictEqual(anonymous.status, 401)
      }))

    it.effect("a cursor the server did not issue, or a limit over 100, is INVALID", () =>
      Effect.gen(function*() {
        const { client, authorization, asOwner, signerId } = yield* twoPayments
        for (const cursor of ["bm90LWEtY3Vyc29y", "!!", Buffer.from("12.short").toString("base64url")]) {
          yield* failsWith(client.delegatedSigners.payments({ params: { id: signerId }, query: { cursor } }).pipe(asOwner), "INVALID")
        }
        // The typed client refuses limit 101 before sending, so this one goes by hand.
        const url = `${yield* BaseUrl}/v1/delegated-signers/${signerId}/payments?limit=101`
        const tooMany = yield* Effect.promise(() => fetch(url, { headers: { authorization } }))
        assert.strictEqual(tooMany.status, 400)
        assert.strictEqual((yield* Effect.promise(() => tooMany.json() as Promise<{ code: string }>)).code, "INVALID")
      }))
  })
})
