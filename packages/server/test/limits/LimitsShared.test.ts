import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { IpNetwork } from "effect/net"
import { Result } from "effect"
import { expectRateLimited } from "../support/Assertions.ts"
import { ReplicaA, ReplicaB, layerReplicas } from "../support/Replicas.ts"
import { awayFromMinuteEdge, postJson, type RawAnswer } from "../support/RawPost.ts"
import { BaseUrl, layerTestServer, testConfig } from "../support/TestServer.ts"

const LIMIT = 4

const askChallenge = (origin: string, options: Parameters<typeof postJson>[2] = {}) =>
  postJson(`${origin}/v1/auth/challenge`, { address: new Ed25519Keypair().toSuiAddress() }, options)

const expectLimited = (answer: RawAnswer) => expectRateLimited(answer, "sign_in_rate_limited")

const loopback = Result.getOrThrow(IpNetwork.fromString("127.0.0.1/32"))

describe("limits are counted in the store, so every replica spends one budget", () => {
  layer(layerReplicas({ ...testConfig, signInChallengesPerMinute: LIMIT }).pipe(Layer.orDie), { excludeTestServices: true })((it) => {
    it.effect("a client spreading sign-in challenges over two replicas is refused after the limit, by both", () =>
      Effect.gen(function*() {
        const a = yield* ReplicaA
        const b = yield* ReplicaB
        yield* awayFromMinuteEdge()
        for (const origin of [a, b, a, b]) assert.strictEqual((yield* askChallenge(origin)).status, 200)
        expectLimited(yield* askChallenge(a))
        expectLimited(yield* askChallenge(b))
        // Another client's budget is its own.
        assert.strictEqual((yield* askChallenge(a, { localAddress: "127.0.0.2" })).status, 200)
      }))

    it.effect("a burst at both replicas at once gets exactly the limit", () =>
      Effect.gen(function*() {
        const a = yield* ReplicaA
        const b = yield* ReplicaB
        yield* awayFromMinuteEdge()
        const burst = Array.from({ length: 24 }, (_, i) => askChallenge(i % 2 === 0 ? a : b, { localAddress: "127.0.0.4" }))
        const answers = yield* Effect.all(burst, { concurrency: "unbounded" })
        assert.strictEqual(answers.filter((r) => r.status === 200).length, LIMIT)
        for (const refused of answers.filter((r) => r.status !== 200)) expectLimited(refused)
      }))
  })
})

describe("X-Forwarded-For names the client only behind a trusted proxy", () => {
  // The test connects from 127.0.0.1, which stands for the load balancer.
  layer(layerTestServer({ signInChallengesPerMinute: 2, trustedProxies: [loopback] }), { excludeTestServices: true })((it) => {
    it.effect("behind a trusted proxy two clients have separate budgets", () =>
      Effect.gen(function*() {
        const origin = yield* BaseUrl
        const client = (ip: string) => ({ headers: { "x-forwarded-for": ip } })
        yield* awayFromMinuteEdge()
        for (let i = 0; i < 2; i++) assert.strictEqual((yield* askChallenge(origin, client("198.51.100.1"))).status, 200)
        expectLimited(yield* askChallenge(origin, client("198.51.100.1")))
        // A client that put its own X-Forwarded-For in front is still the address the proxy appended.
        expectLimited(yield* askChallenge(origin, client("203.0.113.9, 198.51.100.1")))
        for (let i = 0; i < 2; i++) assert.strictEqual((yield* askChallenge(origin, client("198.51.100.2"))).status, 200)
        expectLimited(yield* askChallenge(origin, client("198.51.100.2")))
        // An IPv6 client is counted by its /64: another address of the same network is the same client.
        assert.strictEqual((yield* askChallenge(origin, client("2001:db8:7:7::1"))).status, 200)
        assert.strictEqual((yield* askChallenge(origin, client("2001:db8:7:7::2"))).status, 200)
        expectLimited(yield* askChallenge(origin, client("2001:db8:7:7:ffff::3")))
        assert.strictEqual((yield* askChallenge(origin, client("2001:db8:7:8::1"))).status, 200)
      }))

    it.effect("a peer that is not a trusted proxy earns nothing by sending X-Forwarded-For", () =>
      Effect.gen(function*() {
        const origin = yield* BaseUrl
        yield* awayFromMinuteEdge()
        const from = (ip: string) => ({ localAddress: "127.0.0.3", headers: { "x-forwarded-for": ip } })
        for (let i = 0; i < 2; i++) assert.strictEqual((yield* askChallenge(origin, from(`198.51.100.${10 + i}`))).status, 200)
        expectLimited(yield* askChallenge(origin, from("198.51.100.20")))
      }))
  })

  layer(layerTestServer({ signInChallengesPerMinute: 2 }), { excludeTestServices: true })((it) => {
    it.effect("without TRUSTED_PROXIES a forged X-Forwarded-For earns nothing", () =>
      Effect.gen(function*() {
        const origin = yield* BaseUrl
        yield* awayFromMinuteEdge()
        for (let i = 0; i < 2; i++) {
          assert.strictEqual((yield* askChallenge(origin, { headers: { "x-forwarded-for": `198.51.100.${30 + i}` } })).status, 200)
        }
        expectLimited(yield* askChallenge(origin, { headers: { "x-forwarded-for": "198.51.100.40" } }))
      }))
  })
})
