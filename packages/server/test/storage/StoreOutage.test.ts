import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { failsWith } from "../support/Assertions.ts"
import { createRequest, fundedOwner } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer, StoreSwitch, SwitchableStore } from "../support/TestServer.ts"

const get = (url: string) =>
  Effect.promise(() => fetch(url).then(async (r) => ({ status: r.status, text: await r.text() })))

describe("the catalog when its store is down", () => {
  layer(Layer.mergeAll(layerTestServer({}, SwitchableStore).pipe(Layer.provideMerge(SwitchableStore)), FetchLayer), {
    excludeTestServices: true
  })((it) => {
    it.effect("answers 503 UNAVAILABLE with the error body, invents nothing, and recovers by itself", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const store = yield* StoreSwitch
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const { service } = yield* client.sellers.register({
          payload: {
            name: "Outage Probe",
            description: "present before the outage",
            method: "GET",
            path: "/probe",
            price: PositiveAtomicAmount.make("1"),
            asset: CoinType.make("0x2::sui::SUI"),
            decimals: 9,
            payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
            upstreamUrl: "http://127.0.0.1:9/probe"
          }
        }).pipe(withOwner(authorization))
        yield* client.sellers.activate({ params: { id: service.id } }).pipe(withOwner(authorization))

        yield* store.down
        for (const path of ["/v1/services", `/v1/services/${service.id}`, "/llms.txt"]) {
          const response = yield* get(`${baseUrl}${path}`)
          assert.strictEqual(response.status, 503, path)
          const body = JSON.parse(response.text) as Record<string, unknown>
          assert.deepStrictEqual(body, { ok: false, code: "UNAVAILABLE", message: "The store is unavailable", reason: "store_unreachable" })
          assert.notInclude(response.text, "Outage Probe")
        }
        const health = JSON.parse((yield* get(`${baseUrl}/health`)).text) as Record<string, unknown>
        assert.strictEqual(health.store, "down")

        yield* store.up
        const recovered = yield* Effect.retry(
          Effect.flatMap(get(`${baseUrl}/v1/services/${service.id}`), (r) => (r.status === 200 ? Effect.succeed(r) : Effect.fail(r))),
          { times: 50 }
        )
        assert.include(recovered.text, "Outage Probe")
      }))
  })
})

describe("a finalize when the store fails mid-request", () => {
  layer(
    Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer({}, SwitchableStore)), Layer.provideMerge(SwitchableStore)), FetchLayer),
    { excludeTestServices: true }
  )((it) => {
    it.effect("answers 503, leaves the grant as it was, and the retry after recovery finalizes it", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const store = yield* StoreSwitch
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(baseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "store-fault")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const params = { id: created.delegatedSignerId, grantId: grant.grantId }

        yield* store.down
        const during = yield* Effect.promise(() =>
          fetch(`${baseUrl}/v1/delegated-signers/${params.id}/grants/${params.grantId}/finalize`, {
            method: "POST",
            headers: { authorization: "Bearer x", "content-type": "application/json" },
            body: JSON.stringify({ digest })
          }).then((r) => r.status)
        )
        assert.strictEqual(during, 503)
        yield* failsWith(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), "UNAVAILABLE")
        yield* store.up

        const retried = yield* Effect.retry(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), { times: 30 })
        assert.strictEqual(retried.status, "active")
        assert.strictEqual(retried.alreadyFinalized, false)
      }))
  })
})

describe("connections cut under load", () => {
  layer(Layer.mergeAll(layerTestServer({}, SwitchableStore).pipe(Layer.provideMerge(SwitchableStore)), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("every request during the cut is answered (200 or 503 with the body), and the server recovers on its own", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const store = yield* StoreSwitch
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const burst = Effect.forEach(Array.from({ length: 40 }, (_, i) => i), (i) =>
          Effect.promise(() =>
            fetch(i % 2 === 0 ? `${baseUrl}/v1/services?q=x` : `${baseUrl}/v1/policies`, { headers: { authorization } })
              .then(async (r) => ({ status: r.status, body: await r.text() }))
          ), { concurrency: 16 })
        const [during] = yield* Effect.all([burst, Effect.delay(store.cut, "5 millis")], { concurrency: 2 })
        for (const response of during) {
          assert.include([200, 503], response.status, response.body)
          if (response.status === 503) assert.strictEqual(JSON.parse(response.body).code, "UNAVAILABLE")
        }
        const after = yield* Effect.retry(
          Effect.flatMap(Effect.promise(() => fetch(`${baseUrl}/v1/policies`, { headers: { authorization } }).then((r) => r.status)), (s) =>
            s === 200 ? Effect.succeed(s) : Effect.fail(s)),
          { times: 50 }
        )
        assert.strictEqual(after, 200)
      }))
  })
})
