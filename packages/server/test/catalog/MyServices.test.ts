import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { amount, paidCallEnv, SUI } from "../support/Scenario.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const terms = (name: string, upstreamUrl: string) => ({
  name,
  description: `${name}, for the listing test`,
  method: "GET" as const,
  path: "/answer",
  price: amount(1000n),
  asset: SUI,
  decimals: 9,
  payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
  upstreamUrl
})

describe("GET /v1/sellers/me/services", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("lists the caller's own services, drafts and live ones, newest first, and no one else's", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { url } = yield* Upstream
        const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const asOther = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)

        const none = yield* client.myServices.list().pipe(asSeller)
        assert.deepStrictEqual(none, { services: [], count: 0 })

        const first = (yield* client.sellers.register({ payload: terms("First", url) }).pipe(asSeller)).service
        yield* client.sellers.activate({ params: { id: first.id } }).pipe(asSeller)
        const second = (yield* client.sellers.register({ payload: terms("Second", url) }).pipe(asSeller)).service
        yield* client.sellers.register({ payload: terms("Someone else's", url) }).pipe(asOther)

        const mine = yield* client.myServices.list().pipe(asSeller)
        assert.strictEqual(mine.count, 2)
        assert.deepStrictEqual(mine.services.map((s) => [s.service.id, s.service.status]), [[second.id, "draft"], [first.id, "live"]])
        // Each as `manage` answers it: the management fields beside the terms.
        const managed = yield* client.sellers.manage({ params: { id: first.id } }).pipe(asSeller)
        assert.deepStrictEqual(mine.services[1], managed)
        assert.strictEqual((yield* client.myServices.list().pipe(asOther)).count, 1)
      }))

    it.effect("needs an owner session", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const response = yield* Effect.promise(() => fetch(`${baseUrl}/v1/sellers/me/services`))
        assert.strictEqual(response.status, 401)
        const body = yield* Effect.promise(() => response.json())
        assert.strictEqual(body.code, "UNAUTHENTICATED")
      }))
  })
})
