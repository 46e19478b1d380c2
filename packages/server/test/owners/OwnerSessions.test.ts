import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { internalHopMac } from "../../src/owners/InternalHop.ts"
import { failsWith } from "../support/Assertions.ts"
import { BaseUrl, INTERNAL_SECRET, layerTestServer } from "../support/TestServer.ts"

const send = (baseUrl: string, path: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}${path}`, init)
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

const expectErrorBody = (body: Record<string, unknown>, code: string) => {
  assert.deepStrictEqual(Object.keys(body).sort(), ["code", "message", "ok", "reason"])
  assert.strictEqual(body.ok, false)
  assert.strictEqual(body.code, code)
}

/** An owner route that needs nothing but a session. */
const listPolicies = (baseUrl: string, authorization?: string) =>
  send(baseUrl, "/v1/policies", authorization === undefined ? {} : { headers: { authorization } })

describe("owner sessions", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("signs in with an Ed25519 and a Secp256k1 wallet and uses the session", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        for (const keypair of [new Ed25519Keypair(), new Secp256k1Keypair()]) {
          const session = yield* signIn(client, keypair)
          assert.strictEqual(session.address, keypair.toSuiAddress())
          const policies = yield* client.policies.listPolicies().pipe(withOwner(session.authorization))
          assert.deepStrictEqual(policies.policies, [])
        }
      }))

    it.effect("refuses a wrong signature, a reused nonce and a tampered message", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        const address = SuiAddress.make(owner.toSuiAddress())

        const challenge = yield* client.auth.challenge({ payload: { address } })
        const bytes = new TextEncoder().encode(challenge.message)
        const forged = yield* Effect.promise(() => new Ed25519Keypair().signPersonalMessage(bytes))
        const wrong = yield* failsWith(
          client.auth.session({ payload: { message: challenge.message, signature: forged.signature } }),
          "UNAUTHENTICATED"
        )
        assert.strictEqual(wrong.reason, "bad_signature")

        const good = yield* Effect.promise(() => owner.signPersonalMessage(bytes))
        yield* client.auth.session({ payload: { message: challenge.message, signature: good.signature } })
        const reused = yield* failsWith(
          client.auth.session({ payload: { message: challenge.message, signature: good.signature } }),
          "UNAUTHENTICATED"
        )
        assert.strictEqual(reused.reason, "unknown_used_or_expired_challenge")

        const next = yield* client.auth.challenge({ payload: { address } })
        const tamperedText = next.message.replace(/Expiration Time: .*/, "Expiration Time: 2999-01-01T00:00:00.000Z")
        const tampered = yield* Effect.promise(() => owner.signPersonalMessage(new TextEncoder().encode(tamperedText)))
        const mismatch = yield* failsWith(
          client.auth.session({ payload: { message: tamperedText, signature: tampered.signature } }),
          "UNAUTHENTICATED"
        )
        assert.strictEqual(mismatch.reason, "unknown_used_or_expired_challenge")
        const untouched = yield* Effect.promise(() => owner.signPersonalMessage(new TextEncoder().encode(next.message)))
        yield* client.auth.session({ payload: { message: next.message, signature: untouched.signature } })
      }))

    it.effect("accepts a fresh internal hop once and refuses forged, stale and replayed ones", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const address = new Ed25519Keypair().toSuiAddress()
        const now = Date.now()
        const hop = (ms: number, secret = INTERNAL_SECRET) => `Internal ${address}.${ms}.${internalHopMac(secret, address, ms)}`

        const fresh = hop(now)
        assert.strictEqual((yield* listPolicies(baseUrl, fresh)).status, 200)
        const replayed = yield* listPolicies(baseUrl, fresh)
        assert.strictEqual(replayed.status, 401)
        assert.strictEqual(replayed.body.reason, "internal_hop_replayed")

        const forged = yield* listPolicies(baseUrl, hop(now + 1, "not-the-secret"))
        assert.strictEqual(forged.status, 401)
        expectErrorBody(forged.body, "UNAUTHENTICATED")

        const stale = yield* listPolicies(baseUrl, hop(now - 10 * 60_000))
        assert.strictEqual(stale.body.reason, "internal_hop_outside_window")
      }))

    it.effect("refuses bare owner headers, unknown schemes and missing sessions with the error body", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const address = new Ed25519Keypair().toSuiAddress()
        for (
          const headers of [
            {},
            { "x-owner-address": address },
            { "x-sui-address": address, "x-owner": address },
            { authorization: address },
            { authorization: `Basic ${Buffer.from(`${address}:x`).toString("base64")}` },
            { authorization: "Bearer not-a-real-token" }
          ]
        ) {
          const response = yield* send(baseUrl, "/v1/policies", { headers })
          assert.strictEqual(response.status, 401, JSON.stringify(headers))
          expectErrorBody(response.body, "UNAUTHENTICATED")
        }
      }))

    it.effect("answers unknown routes, malformed JSON and schema failures with the error body", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const unknown = yield* send(baseUrl, "/v1/nothing-here")
        assert.strictEqual(unknown.status, 404)
        expectErrorBody(unknown.body, "NOT_FOUND")

        const json = { method: "POST", headers: { "content-type": "application/json" } }
        const malformed = yield* send(baseUrl, "/v1/auth/challenge", { ...json, body: "{\"address\":" })
        assert.strictEqual(malformed.status, 400)
        expectErrorBody(malformed.body, "INVALID")

        const schema = yield* send(baseUrl, "/v1/auth/challenge", { ...json, body: JSON.stringify({ address: "0x12" }) })
        assert.strictEqual(schema.status, 400)
        expectErrorBody(schema.body, "INVALID")
        assert.match(String(schema.body.reason), /^body\.address: /)

        const oversized = yield* send(baseUrl, "/v1/auth/challenge", {
          ...json,
          body: JSON.stringify({ address: "0x".padEnd(200_000, "a") })
        })
        assert.strictEqual(oversized.status, 400)
        expectErrorBody(oversized.body, "INVALID")
      }))
  })

  layer(Layer.mergeAll(layerTestServer({ signInChallengesPerMinute: 3 }), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("brakes challenges per client, whatever addresses they name", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const fresh = () => SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        for (let i = 0; i < 3; i++) yield* client.auth.challenge({ payload: { address: fresh() } })
        const braked = yield* failsWith(client.auth.challenge({ payload: { address: fresh() } }), "RATE_LIMITED")
        assert.strictEqual(braked.reason, "sign_in_rate_limited")
      }))
  })

  layer(Layer.mergeAll(layerTestServer({ signInPerMinute: 2 }), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("brakes verified sign-ins per address", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const owner = new Ed25519Keypair()
        const address = SuiAddress.make(owner.toSuiAddress())
        const signed: Array<{ readonly message: string; readonly signature: string }> = []
        for (let i = 0; i < 3; i++) {
          const { message } = yield* client.auth.challenge({ payload: { address } })
          const { signature } = yield* Effect.promise(() => owner.signPersonalMessage(new TextEncoder().encode(message)))
          signed.push({ message, signature })
        }
        const [first, second, third] = signed
        if (first === undefined || second === undefined || third === undefined) return assert.fail("three challenges")
        yield* client.auth.session({ payload: first })
        yield* client.auth.session({ payload: second })
        const braked = yield* failsWith(client.auth.session({ payload: third }), "RATE_LIMITED")
        assert.strictEqual(braked.reason, "sign_in_rate_limited")
        yield* signIn(client, new Ed25519Keypair())
      }))
  })

  layer(Layer.mergeAll(layerTestServer({ sessionTtlMs: 300 }), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("refuses a session after it expires", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const session = yield* signIn(client, new Ed25519Keypair())
        assert.strictEqual((yield* listPolicies(baseUrl, session.authorization)).status, 200)
        yield* Effect.sleep("400 millis")
        const expired = yield* listPolicies(baseUrl, session.authorization)
        assert.strictEqual(expired.status, 401)
        assert.strictEqual(expired.body.reason, "unknown_or_expired_session")
      }))
  })

  layer(Layer.mergeAll(layerTestServer({ challengeTtlMs: 1 }), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("refuses an expired challenge", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        const challenge = yield* client.auth.challenge({ payload: { address: SuiAddress.make(owner.toSuiAddress()) } })
        yield* Effect.sleep("20 millis")
        const signed = yield* Effect.promise(() => owner.signPersonalMessage(new TextEncoder().encode(challenge.message)))
        const expired = yield* failsWith(
          client.auth.session({ payload: { message: challenge.message, signature: signed.signature } }),
          "UNAUTHENTICATED"
        )
        assert.strictEqual(expired.reason, "unknown_used_or_expired_challenge")
      }))
  })
})
