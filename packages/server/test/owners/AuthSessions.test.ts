import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { FetchLayer, makeApiClient, signIn } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const call = (url: string, authorization: string, method = "GET") =>
  Effect.promise(async () => {
    const response = await fetch(url, { method, headers: { authorization } })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

describe("signing out", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("revokes the calling session only, and revoke-all revokes every session of that owner and no other", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        const first = yield* signIn(client, owner)
        const second = yield* signIn(client, owner)
        const third = yield* signIn(client, owner)
        const other = yield* signIn(client, new Ed25519Keypair())
        const policies = (authorization: string) => Effect.map(call(`${baseUrl}/v1/policies`, authorization), (r) => r.status)

        const out = yield* call(`${baseUrl}/v1/auth/session`, first.authorization, "DELETE")
        assert.deepStrictEqual(out, { status: 200, body: { revoked: 1 } })
        assert.strictEqual(yield* policies(first.authorization), 401, "the revoked session is refused")
        assert.strictEqual(yield* policies(second.authorization), 200, "the owner's other sessions stay")
        const again = yield* call(`${baseUrl}/v1/auth/session`, first.authorization, "DELETE")
        assert.strictEqual(again.status, 401)
        assert.strictEqual(again.body.code, "UNAUTHENTICATED")

        const all = yield* call(`${baseUrl}/v1/auth/sessions`, second.authorization, "DELETE")
        assert.deepStrictEqual(all, { status: 200, body: { revoked: 2 } })
        assert.strictEqual(yield* policies(second.authorization), 401)
        assert.strictEqual(yield* policies(third.authorization), 401)
        assert.strictEqual(yield* policies(other.authorization), 200, "another owner's session is untouched")

        const anonymous = yield* Effect.promise(() => fetch(`${baseUrl}/v1/auth/sessions`, { method: "DELETE" }))
        assert.strictEqual(anonymous.status, 401)
      }))
  })
})

describe("the store forgets what has expired", () => {
  layer(
    // Lifetimes long enough that signing in on a loaded machine finishes well inside them, short enough to wait out.
    Layer.mergeAll(layerTestServer({ challengeTtlMs: 2_000, sessionTtlMs: 2_000, storeSweepIntervalMs: 100 }), FetchLayer),
    { excludeTestServices: true }
  )((it) => {
    it.effect("expired challenges and sessions are deleted by the periodic sweep", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const client = yield* makeApiClient(yield* BaseUrl)
        const owner = new Ed25519Keypair()
        yield* signIn(client, owner)
        yield* client.auth.challenge({ payload: { address: SuiAddress.make(owner.toSuiAddress()) } })
        const count = Effect.map(
          sql<{ n: number }>`SELECT (SELECT count(*) FROM auth_challenges)::int + (SELECT count(*) FROM owner_sessions)::int AS n`,
          (rows) => rows[0]?.n ?? -1
        )
        assert.strictEqual(yield* count, 3, "two challenges and one session are stored")
        yield* Effect.sleep("3 seconds")
        assert.strictEqual(yield* count, 0, "nothing expired is kept")
      }))
  })
})
