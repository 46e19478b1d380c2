import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { PaymentRequiredV2Schema } from "@x402/core/schemas"
import { validateDiscoveryExtension } from "@x402/extensions/bazaar"
import { Challenge, Credential, PaymentRequest, Receipt } from "mppx"
import { Effect } from "effect"
import { challengeProofMessage, proofMessage, sha256Hex } from "@gateway/domain/PaymentProof"
import { pay, refs } from "../support/PayByHand.ts"
import { paidService } from "../support/PaidEnv.ts"
import { paidCallEnv } from "../support/Scenario.ts"
import { Upstream } from "../support/Upstream.ts"

const unpaid = (url: string, method = "GET") =>
  Effect.promise(async () => {
    const response = await fetch(url, { method })
    return { response, body: await response.json() as Record<string, unknown> }
  })

/** The 402, as the two reference libraries read it. */
const challenges = (url: string, method = "GET") =>
  Effect.map(unpaid(url, method), ({ response, body }) => ({
    response,
    body,
    x402: decodePaymentRequiredHeader(response.headers.get("payment-required") ?? ""),
    mpp: Challenge.fromResponse(response)
  }))

const signed = (key: Ed25519Keypair, message: Uint8Array | undefined) =>
  Effect.promise(async () => message === undefined ? "" : (await key.signPersonalMessage(message)).signature)

describe("the payment wire format, read and written by the reference libraries", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("the 402 is an x402 v2 PaymentRequired of schemes exact and sui-delegate with a bazaar description, never cached", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, manifest } = yield* paidService(upstream.url, "POST")
        const { response, body, x402 } = yield* challenges(entry.resourceUrl, "POST")
        assert.strictEqual(response.status, 402)
        assert.strictEqual(response.headers.get("cache-control"), "no-store")
        const required = PaymentRequiredV2Schema.parse(x402)
        assert.strictEqual(required.x402Version, 2)
        assert.strictEqual(required.resource.url, entry.resourceUrl)
        // Sign-first (`exact`) first, upfront (`sui-delegate`) second, for the same terms and nonce.
        const [exact, offer] = required.accepts
        assert.deepInclude(exact, { scheme: "exact", network: manifest.network, amount: "40", asset: entry.asset, payTo: entry.payTo })
        assert.deepInclude(exact?.extra ?? {}, { paymentFlow: "authorization", nonce: offer?.extra?.["nonce"], gasStation: `${new URL(entry.resourceUrl).origin}/v1/gas-station` })
        assert.deepInclude(offer, { scheme: "sui-delegate", network: manifest.network, amount: "40", asset: entry.asset, payTo: entry.payTo })
        assert.deepInclude(offer?.extra ?? {}, {
          paymentFlow: "upfront",
          assetTransferMethod: "spend_account::pay",
          serviceId: entry.id,
          method: "POST",
          path: entry.path,
          resourceUrl: entry.resourceUrl,
          packageId: manifest.packageId,
          publishedAt: manifest.publishedAt
        })
        assert.isString(offer?.extra?.["nonce"])
        assert.isTrue(Date.parse(String(offer?.extra?.["expiresAt"])) > Date.now())
        const bazaar = required.extensions?.["bazaar"]
        assert.deepStrictEqual(validateDiscoveryExtension(bazaar as Parameters<typeof validateDiscoveryExtension>[0]), { valid: true })
        // The body is the same PaymentRequired beside the error fields.
        assert.deepInclude(body, { ok: false, code: "PAYMENT_REQUIRED", reason: "payment_required", ...required })
      }))

    it.effect("mppx reads the MPP challenge: method sui, intent charge, a canonical request with the Sui terms in methodDetails", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, manifest } = yield* paidService(upstream.url)
        const { response, x402, mpp } = yield* challenges(entry.resourceUrl)
        assert.deepInclude(mpp, { method: "sui", intent: "charge", realm: new URL(entry.resourceUrl).host })
        assert.strictEqual(mpp.expires, x402.accepts[0]?.extra["expiresAt"])
        assert.deepStrictEqual(mpp.request, {
          amount: "40",
          currency: entry.asset,
          recipient: entry.payTo,
          methodDetails: {
            network: manifest.network,
            rail: "delegate",
            assetTransferMethod: "spend_account::pay",
            nonce: x402.accepts[0]?.extra["nonce"],
            serviceId: entry.id,
            method: "GET",
            path: entry.path,
            resourceUrl: entry.resourceUrl,
            packageId: manifest.packageId,
            publishedAt: manifest.publishedAt
          }
        })
        const raw = /request="([^"]+)"/.exec(response.headers.get("www-authenticate") ?? "")?.[1]
        assert.strictEqual(raw, PaymentRequest.serialize(mpp.request), "the request is sent in its JCS form")
      }))

    it.effect("an mppx credential echoing the whole challenge pays; the Payment-Receipt and PAYMENT-RESPONSE name the consumed proof", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const { mpp } = yield* challenges(entry.resourceUrl)
        const nonce = String((mpp.request["methodDetails"] as Record<string, unknown>)["nonce"])
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const proof = yield* signed(agentKey, proofMessage({ nonce, digest, method: "GET", url: entry.resourceUrl, bodySha256: yield* Effect.promise(() => sha256Hex(new Uint8Array())) }))
        const present = (challenge: typeof mpp) =>
          Effect.promise(() => fetch(entry.resourceUrl, { headers: { authorization: Credential.serialize({ challenge, payload: { digest, proof } }) } }))

        // The echoed challenge is checked against its HMAC id: a cheaper amount is not the challenge that was issued.
        const altered = yield* present({ ...mpp, request: { ...mpp.request, amount: "1" } })
        assert.strictEqual(altered.status, 402)

        const paid = yield* present(mpp)
        assert.strictEqual(paid.status, 200)
        const receipt = Receipt.fromResponse(paid)
        assert.deepInclude(receipt, { method: "sui", reference: digest, status: "success", externalId: `${manifest.network}:${digest}` })
        const settled = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "")
        assert.deepStrictEqual<unknown>(settled, {
          success: true,
          transaction: digest,
          network: manifest.network,
          payer: agentKey.toSuiAddress(),
          amount: "40",
          extra: { proofKey: `${manifest.network}:${digest}`, nonce }
        })
      }))

    it.effect("a challenge-bound proof pays for the request the challenge describes; only the paying delegate can make one", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url, "POST")
        const { x402 } = yield* challenges(entry.resourceUrl, "POST")
        const offer = x402.accepts.find((o) => o.scheme === "sui-delegate")
        if (offer === undefined) return assert.fail("no offer")
        const nonce = String(offer.extra["nonce"])
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const message = challengeProofMessage({ nonce, digest, method: "POST", url: entry.resourceUrl })
        const present = (proof: string) =>
          Effect.promise(() =>
            fetch(entry.resourceUrl, {
              method: "POST",
              body: "{}",
              headers: { "payment-signature": encodePaymentSignatureHeader({ x402Version: 2, accepted: offer, payload: { digest, proof, binding: "challenge" } }) }
            }).then(async (r) => ({ status: r.status, body: await r.text() }))
          )
        const calls = upstream.calls.length
        const theirs = yield* present(yield* signed(new Ed25519Keypair(), message))
        assert.strictEqual(theirs.status, 402)
        assert.match(theirs.body, /payment_proof_invalid/)
        // A request-bound proof's signature does not pass for a challenge-bound one.
        const crossed = yield* present(yield* signed(agentKey, proofMessage({ nonce, digest, method: "POST", url: entry.resourceUrl, bodySha256: "0".repeat(64) })))
        assert.strictEqual(crossed.status, 402)
        assert.strictEqual(upstream.calls.length, calls, "nothing was forwarded")
        const mine = yield* present(yield* signed(agentKey, message))
        assert.strictEqual(mine.status, 200)
        assert.strictEqual(upstream.calls.length, calls + 1)
      }))
  })
})
