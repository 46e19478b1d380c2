import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { toBase58 } from "@mysten/sui/utils"
import { Effect, Layer } from "effect"
import { makeApiClient } from "@gateway/client"
import { ClockJumps } from "../support/ClockJumps.ts"
import { challengeOf, present } from "../support/PayByHand.ts"
import { liveService, paidCallEnv } from "../support/Scenario.ts"
import { call } from "../support/SellerEnv.ts"
import { BaseUrl, testConfig } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const Env = paidCallEnv().pipe(Layer.provideMerge(ClockJumps.layer))

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64")

const service = Effect.gen(function*() {
  const client = yield* makeApiClient(yield* BaseUrl)
  return (yield* liveService(client, { price: 40n, upstreamUrl: (yield* Upstream).url })).entry
})

const withHeaders = (url: string, headers: Record<string, string>) => call(url, { headers })

describe("paid-call errors say what to do", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("a malformed PAYMENT-SIGNATURE is a 400 naming the malformed part, not a fresh 402", () =>
      Effect.gen(function*() {
        const { resourceUrl } = yield* service
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["%%% not base64", "payment_signature_not_base64"],
          [base64("{not json"), "payment_signature_not_json"],
          [base64(JSON.stringify({ x402Version: 2, accepted: { scheme: "upto" }, payload: {} })), "payment_signature_unknown_scheme"],
          [
            base64(JSON.stringify({ x402Version: 2, accepted: { scheme: "sui-delegate", extra: { nonce: "n" } }, payload: { digest: "not-a-digest" } })),
            "payment_signature_invalid_payload: "
          ]
        ]
        for (const [header, reason] of cases) {
          const answer = yield* withHeaders(resourceUrl, { "payment-signature": header })
          assert.strictEqual(answer.status, 400, header)
          assert.strictEqual(answer.body["code"], "INVALID", header)
          assert.isTrue(String(answer.body["reason"]).startsWith(reason), `${header}: ${String(answer.body["reason"])}`)
          assert.include(String(answer.body["message"]), "PAYMENT-SIGNATURE")
          assert.include(String(answer.body["message"]), "moved no money")
        }
        const invalidPayload = yield* withHeaders(resourceUrl, { "payment-signature": cases[3]?.[0] ?? "" })
        assert.include(String(invalidPayload.body["reason"]), "payload.digest")
      }))

    it.effect("a malformed Authorization: Payment is a 400; another Authorization scheme and a well-formed credential keep today's 402", () =>
      Effect.gen(function*() {
        const { resourceUrl } = yield* service
        const notBase64 = yield* withHeaders(resourceUrl, { authorization: "Payment !!!" })
        assert.strictEqual(notBase64.status, 400)
        assert.strictEqual(notBase64.body["reason"], "authorization_payment_not_base64url")
        const notJson = yield* withHeaders(resourceUrl, { authorization: `Payment ${Buffer.from("nope").toString("base64url")}` })
        assert.strictEqual(notJson.body["reason"], "authorization_payment_not_json")
        const notOurs = yield* withHeaders(resourceUrl, { authorization: `Payment ${Buffer.from(JSON.stringify({ challenge: {} })).toString("base64url")}` })
        assert.strictEqual(notOurs.status, 400)
        assert.match(String(notOurs.body["reason"]), /^authorization_payment_invalid_credential: /)
        assert.strictEqual((yield* withHeaders(resourceUrl, { authorization: "Bearer something" })).status, 402)
        // Of a known scheme but not for a challenge of ours: judged by the presenters, as before.
        const { terms } = yield* challengeOf(resourceUrl)
        const forged = yield* present(resourceUrl, { ...terms, extra: { ...terms.extra, nonce: "forged" } }, toBase58(randomBytes(32)), { signer: undefined })
        assert.strictEqual(forged.status, 402)
      }))

    it.effect("an unknown digest is NOT_FINAL until its challenge expired a few minutes ago, then INVALID saying the chain never saw it", () =>
      Effect.gen(function*() {
        const { resourceUrl } = yield* service
        const { terms } = yield* challengeOf(resourceUrl)
        const digest = toBase58(randomBytes(32))
        const early = yield* present(resourceUrl, terms, digest, { signer: undefined })
        assert.strictEqual(early.status, 409)
        assert.deepInclude(early.body, { code: "NOT_FINAL", reason: "unknown_digest" })
        yield* (yield* ClockJumps).jump(testConfig.challengeTtlMs + 6 * 60_000)
        const late = yield* present(resourceUrl, terms, digest, { signer: undefined })
        assert.strictEqual(late.status, 400)
        assert.deepInclude(late.body, { code: "INVALID", reason: "digest_unknown_to_the_chain" })
        assert.include(String(late.body["message"]), "check the digest")
        assert.include(String(late.body["message"]), "moved no money")
      }))
  })
})
