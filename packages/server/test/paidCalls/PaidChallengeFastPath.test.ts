import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { Challenge, Credential } from "mppx"
import { Effect, Layer, Result } from "effect"
import { IpNetwork } from "effect/net"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { proofMessage, sha256Hex } from "@gateway/domain/PaymentProof"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { openNonce } from "../../src/paidCalls/ChallengeNonce.ts"
import { mppSecretOf } from "../../src/paidCalls/PaymentChallenge.ts"
import { GatewayKeyRepo } from "../../src/storage/GatewayKeyRepo.ts"
import { expectRateLimited } from "../support/Assertions.ts"
import { captureLogs } from "../support/LogCapture.ts"
import { paidService, rawRequest } from "../support/PaidEnv.ts"
import { credential, pay, refs } from "../support/PayByHand.ts"
import { awayFromMinuteEdge } from "../support/RawPost.ts"
import { amount, liveService, paidCallEnv, SUI } from "../support/Scenario.ts"
import { BaseUrl, layerTestServer, TestStore } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const { logs, layer: Capture } = captureLogs()

/** The access-log lines the app wrote for a path: the Node server's own answers write none. */
const accessLines = (path: string) => logs.filter((line) => line.annotations["http.url"] === path).length

/** A request's answer, and whether the app answered it (it logged an access line) or the Node server did. */
const ask = (url: string, init: Parameters<typeof rawRequest>[1] = {}) =>
  Effect.gen(function*() {
    const path = new URL(url).pathname
    const before = accessLines(path)
    const answer = yield* rawRequest(url, init)
    return { ...answer, byApp: accessLines(path) > before }
  })
type Answer = Effect.Success<ReturnType<typeof ask>>

const header = (answer: Answer, name: string) => String(answer.headers[name])
const offerOf = (answer: Answer) => {
  const offer = decodePaymentRequiredHeader(header(answer, "payment-required")).accepts.find((o) => o.scheme === "sui-delegate")
  if (offer === undefined) return assert.fail("no offer")
  return offer
}

/** The gateway's challenge key, from the store every replica reads it from. */
const challengeKey = GatewayKeyRepo.use((keys) => keys.getOrCreate("payment_challenge")).pipe(
  Effect.provide(GatewayKeyRepo.layer),
  Effect.orDie
)

/**
 * A 402 with its own nonce, expiry and MPP id replaced by placeholders, after checking them: the nonce opens
 * under the gateway's key to this service and expiry, the MPP challenge verifies under the gateway's secret and
 * asks for the same nonce and expiry. What is left must be the same bytes whoever answered.
 */
const withoutItsOwn = (answer: Answer, key: Uint8Array, serviceId: string) => {
  const { nonce, expiresAt } = offerOf(answer).extra as { nonce: string; expiresAt: string }
  assert.deepStrictEqual(openNonce(key, nonce), { serviceId, revision: 1, expiresAtMs: Date.parse(expiresAt) })
  const mpp = Challenge.deserialize(header(answer, "www-authenticate"))
  assert.isTrue(Challenge.verify(mpp, { secretKey: mppSecretOf(key) }))
  assert.strictEqual(mpp.expires, expiresAt)
  assert.strictEqual((mpp.request["methodDetails"] as Record<string, unknown>)["nonce"], nonce)
  const own = (text: string) => text.replaceAll(nonce, "<nonce>").replaceAll(expiresAt, "<expiresAt>")
  const { date: _date, "payment-required": required, "www-authenticate": _mpp, ...headers } = answer.headers
  return {
    status: answer.status,
    headers,
    body: own(answer.text),
    paymentRequired: own(Buffer.from(String(required), "base64").toString("utf8")),
    // Both challenges (charge, then session): each with its own id, each request read out of its base64url.
    mpp: own(header(answer, "www-authenticate").replace(/id="[^"]+"/g, "id").replace(/request="([^"]+)"/g, (_, r: string) => Buffer.from(r, "base64url").toString("utf8")))
  }
}

describe("the Node server's own 402s to paid calls without a credential", () => {
  layer(paidCallEnv({}, Capture), { excludeTestServices: true })((it) => {
    it.effect("are the app's 402 for the same request, field by field, but for their own nonce, expiry and MPP id", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const key = yield* challengeKey
        for (const method of ["GET", "POST"] as const) {
          const { entry } = yield* paidService(upstream.url, method)
          const url = `${entry.resourceUrl}?q=a%20b&n=1`
          const app = yield* ask(url, { method })
          const node = yield* ask(url, { method })
          assert.deepStrictEqual([app.status, app.byApp, node.status, node.byApp], [402, true, 402, false], method)
          assert.deepStrictEqual(withoutItsOwn(node, key, entry.id), withoutItsOwn(app, key, entry.id), method)
        }
      }))

    it.effect("leave to the app a body, another method, HEAD, an unknown service and a URL it routes differently", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry } = yield* paidService(upstream.url, "POST")
        assert.isTrue((yield* ask(entry.resourceUrl, { method: "POST" })).byApp)
        assert.isFalse((yield* ask(entry.resourceUrl, { method: "POST" })).byApp)
        const withBody = yield* ask(entry.resourceUrl, { method: "POST", body: new TextEncoder().encode("{}") })
        assert.deepStrictEqual([withBody.status, withBody.byApp], [402, true])
        const wrongMethod = yield* ask(entry.resourceUrl, { method: "PUT" })
        assert.deepStrictEqual([wrongMethod.status, wrongMethod.headers["allow"], wrongMethod.byApp], [405, "POST", true])
        const { entry: get } = yield* paidService(upstream.url)
        yield* ask(get.resourceUrl)
        const head = yield* ask(get.resourceUrl, { method: "HEAD" })
        assert.deepStrictEqual([head.status, head.byApp], [402, true])
        assert.isTrue((yield* ask(`${get.resourceUrl}/`)).byApp)
        assert.isTrue((yield* ask(`${get.resourceUrl}?nul=%00`)).byApp)
        const unknown = yield* ask(get.resourceUrl.replace(/svc_[0-9a-z]+$/, "svc_00000000000000000000000000"))
        assert.deepStrictEqual([unknown.status, unknown.byApp], [404, true])
      }))

    it.effect("answer a service's new terms at once after it changes, and never a service that is not live", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const upstreamUrl = (yield* Upstream).url
        const terms = (price: bigint) => ({
          name: "Answers",
          description: "the answer",
          method: "GET" as const,
          path: "/answer",
          price: amount(price),
          asset: SUI,
          decimals: 9,
          payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
          upstreamUrl
        })
        const { service } = yield* client.sellers.register({ payload: terms(40n) }).pipe(asSeller)
        const { resourceUrl } = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service
        const priced = (answer: Answer) => [answer.status, answer.byApp, offerOf(answer).amount]
        assert.deepStrictEqual(priced(yield* ask(resourceUrl)), [402, true, "40"])
        assert.deepStrictEqual(priced(yield* ask(resourceUrl)), [402, false, "40"])
        yield* client.sellers.edit({ params: { id: service.id }, payload: terms(55n) }).pipe(asSeller)
        yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
        assert.deepStrictEqual(priced(yield* ask(resourceUrl)), [402, true, "55"])
        assert.deepStrictEqual(priced(yield* ask(resourceUrl)), [402, false, "55"])
        // A draft is no service to callers, however often it is called.
        const { service: draft } = yield* client.sellers.register({ payload: terms(40n) }).pipe(asSeller)
        const draftUrl = resourceUrl.replace(service.id, draft.id)
        for (let i = 0; i < 2; i++) {
          const refused = yield* ask(draftUrl)
          assert.deepStrictEqual([refused.status, refused.byApp, JSON.parse(refused.text).code], [404, true, "NOT_FOUND"])
        }
      }))

    it.effect("leave a call with a credential to the app, which verifies the payment of their challenge and forwards the call", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        yield* ask(entry.resourceUrl)
        const forwarded = upstream.calls.length
        // x402: the Node server's challenge, paid and presented.
        const x402 = yield* ask(entry.resourceUrl)
        assert.isFalse(x402.byApp)
        const offer = offerOf(x402)
        const paidX402 = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce: String(offer.extra["nonce"]) })
        const presented = yield* ask(entry.resourceUrl, { headers: { "payment-signature": yield* credential(entry.resourceUrl, offer, paidX402, { signer: agentKey }) } })
        assert.deepStrictEqual([presented.status, presented.byApp, upstream.calls.length], [200, true, forwarded + 1], presented.text)
        // MPP: the Node server's challenge echoed whole in `Authorization: Payment`.
        const mppAnswer = yield* ask(entry.resourceUrl)
        assert.isFalse(mppAnswer.byApp)
        const challenge = Challenge.deserialize(header(mppAnswer, "www-authenticate"))
        const nonce = String((challenge.request["methodDetails"] as Record<string, unknown>)["nonce"])
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const message = proofMessage({ nonce, digest, method: "GET", url: entry.resourceUrl, bodySha256: yield* Effect.promise(() => sha256Hex(new Uint8Array())) })
        if (message === undefined) return assert.fail("no proof message")
        const proof = (yield* Effect.promise(() => agentKey.signPersonalMessage(message))).signature
        const paidMpp = yield* ask(entry.resourceUrl, { headers: { authorization: Credential.serialize({ challenge, payload: { digest, proof } }) } })
        assert.deepStrictEqual([paidMpp.status, paidMpp.byApp, upstream.calls.length], [200, true, forwarded + 2], paidMpp.text)
      }))
  })
})

const LIMIT = 3

describe("the Node server's own 402s count in the per-client challenge limit", () => {
  layer(Layer.mergeAll(layerTestServer({ paymentChallengesPerMinute: LIMIT }, TestStore, Capture), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("a client's 402s, answered by either, are counted; at the limit the app answers 429 with Retry-After", () =>
      Effect.gen(function*() {
        const { entry } = yield* liveService(yield* makeApiClient(yield* BaseUrl), { price: 40n, upstreamUrl: "http://127.0.0.1:9" })
        const from = (localAddress: string) => ask(entry.resourceUrl, { localAddress })
        yield* awayFromMinuteEdge()
        const answers: Array<Answer> = []
        for (let i = 0; i < LIMIT; i++) answers.push(yield* from("127.0.0.5"))
        assert.deepStrictEqual(answers.map((a) => [a.status, a.byApp]), [[402, true], [402, false], [402, false]])
        const refused = yield* from("127.0.0.5")
        assert.isTrue(refused.byApp)
        expectRateLimited(
          { ...refused, body: JSON.parse(refused.text) },
          "payment_challenges_rate_limited",
          "Too many payment challenges asked for by this client: try again after Retry-After seconds"
        )
        // Another client's 402s are its own.
        assert.deepStrictEqual([(yield* from("127.0.0.6")).status, (yield* from("127.0.0.6")).byApp], [402, false])
      }))
  })
})

const loopback = Result.getOrThrow(IpNetwork.fromString("127.0.0.1/32"))

describe("behind trusted proxies the Node server counts the client the app counts", () => {
  // The test connects from 127.0.0.1, which stands for the load balancer.
  layer(Layer.mergeAll(layerTestServer({ paymentChallengesPerMinute: 2, trustedProxies: [loopback] }, TestStore, Capture), FetchLayer), {
    excludeTestServices: true
  })((it) => {
    it.effect("the forwarded client's 402s are counted against it, and a peer that is no proxy is counted as itself", () =>
      Effect.gen(function*() {
        const { entry } = yield* liveService(yield* makeApiClient(yield* BaseUrl), { price: 40n, upstreamUrl: "http://127.0.0.1:9" })
        const asked = (forwardedFor: string, localAddress = "127.0.0.1") =>
          Effect.map(ask(entry.resourceUrl, { localAddress, headers: { "x-forwarded-for": forwardedFor } }), (a) => [a.status, a.byApp])
        yield* awayFromMinuteEdge()
        assert.deepStrictEqual(yield* asked("198.51.100.9"), [402, true])
        assert.deepStrictEqual(yield* asked("198.51.100.1"), [402, false])
        assert.deepStrictEqual(yield* asked("198.51.100.1"), [402, false])
        assert.deepStrictEqual(yield* asked("198.51.100.1"), [429, true])
        // A client that put its own X-Forwarded-For in front is still the address the proxy appended.
        assert.deepStrictEqual(yield* asked("203.0.113.9, 198.51.100.1"), [429, true])
        assert.deepStrictEqual(yield* asked("198.51.100.2"), [402, false])
        // An IPv6 client is counted by its /64.
        assert.deepStrictEqual(yield* asked("2001:db8:7:7::1"), [402, false])
        assert.deepStrictEqual(yield* asked("2001:db8:7:7::2"), [402, false])
        assert.deepStrictEqual(yield* asked("2001:db8:7:7:ffff::3"), [429, true])
        // 127.0.0.3 is no trusted proxy: what it forwards is ignored, and it spends its own budget.
        assert.deepStrictEqual(yield* asked("198.51.100.30", "127.0.0.3"), [402, false])
        assert.deepStrictEqual(yield* asked("198.51.100.31", "127.0.0.3"), [402, false])
        assert.deepStrictEqual(yield* asked("198.51.100.32", "127.0.0.3"), [429, true])
      }))
  })
})
