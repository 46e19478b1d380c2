import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { sellerEnv, sellerSession, termsJson } from "../support/SellerEnv.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

/** A test coin the gateway accepts, whose metadata (6 decimals) its mint publishes, as a coin's creator would. */
const USDC = `0x${"d6".repeat(32)}::usdc::USDC`

/** A seller who gets a registration wrong is told every field to fix and how, in one answer. */
describe("registration errors say what to do", () => {
  layer(sellerEnv({ supportedAssets: ["0x2::sui::SUI", USDC] }), { excludeTestServices: true })((it) => {
    const seller = Effect.gen(function*() {
      const baseUrl = yield* BaseUrl
      return yield* sellerSession(yield* makeApiClient(baseUrl), baseUrl)
    })

    it.effect("a loopback upstream not allow-listed names UPSTREAM_ALLOW_HOSTS with its host:port", () =>
      Effect.gen(function*() {
        const answer = yield* (yield* seller).register(termsJson("Loopback", "http://127.0.0.1:4555/answer"))
        assert.strictEqual(answer.status, 400)
        assert.deepInclude(answer.body, { code: "INVALID", reason: "body.upstreamUrl: upstream_address_is_loopback_private_or_reserved" })
        assert.include(String(answer.body["message"]), "UPSTREAM_ALLOW_HOSTS=127.0.0.1:4555")
      }))

    it.effect("every invalid field is reported at once, and a price in whole coins gets the unit with an example", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const answer = yield* (yield* seller).register(termsJson("Many", upstream.url, { price: "0.001", path: "answer", method: "FETCH" }))
        assert.strictEqual(answer.status, 400)
        assert.strictEqual(answer.body["code"], "INVALID")
        const reason = String(answer.body["reason"])
        for (const field of ["body.price", "body.path", "body.method"]) {
          assert.include(reason, `${field}:`)
          assert.include(String(answer.body["message"]), field)
        }
        assert.include(reason, "atomic units")
        assert.include(reason, `"1000" = 0.000001 SUI at 9 decimals`)
      }))

    it.effect("a price written as a JSON number is told to quote it, with an example", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const answer = yield* (yield* seller).register(termsJson("Numeric", upstream.url, { price: 25000 }))
        assert.strictEqual(answer.status, 400)
        assert.strictEqual(answer.body["code"], "INVALID")
        assert.include(String(answer.body["reason"]), `body.price: Expected a whole number of atomic units as a decimal string in quotes, e.g. "1000", not the number 1000`)
      }))

    it.effect("decimals that differ from the coin's metadata on chain are refused naming the expected value", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const answer = yield* (yield* seller).register(termsJson("Six", upstream.url, { decimals: 6 }))
        assert.strictEqual(answer.status, 400)
        assert.deepInclude(answer.body, { code: "INVALID", reason: "body.decimals: expected_9_from_coin_metadata" })
        assert.include(String(answer.body["message"]), "must be 9")
      }))

    it.effect("decimals left out are taken from the coin's metadata on chain", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { decimals: _omitted, ...withoutDecimals } = termsJson("Omitted", upstream.url)
        const answer = yield* (yield* seller).register(withoutDecimals)
        assert.strictEqual(answer.status, 200, answer.text)
        const service = answer.body["service"] as { readonly decimals?: unknown } | undefined
        assert.strictEqual(service?.decimals, 9)
      }))

    it.effect("a minted coin's decimals are checked against the metadata its mint published, and taken from it when left out", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        yield* (yield* LocalLedger).mint(new Ed25519Keypair().toSuiAddress(), USDC, 1_000_000n, { decimals: 6 })
        const wrong = yield* (yield* seller).register(termsJson("UsdcNine", upstream.url, { asset: USDC, decimals: 9 }))
        assert.strictEqual(wrong.status, 400)
        assert.deepInclude(wrong.body, { code: "INVALID", reason: "body.decimals: expected_6_from_coin_metadata" })
        assert.include(String(wrong.body["message"]), "must be 6")

        const { decimals: _omitted, ...withoutDecimals } = termsJson("UsdcOmitted", upstream.url, { asset: USDC })
        const taken = yield* (yield* seller).register(withoutDecimals)
        assert.strictEqual(taken.status, 200, taken.text)
        const service = taken.body["service"] as { readonly decimals?: unknown } | undefined
        assert.strictEqual(service?.decimals, 6)
      }))
  })
})
