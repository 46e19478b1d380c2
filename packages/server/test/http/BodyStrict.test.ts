import { randomBytes } from "node:crypto"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { createRequest, fundedOwner } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer, TestStore } from "../support/TestServer.ts"
import { captureLogs, wholeLine } from "../support/LogCapture.ts"

const { logs, layer: Capture } = captureLogs()

const post = (url: string, body: unknown, authorization?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomBytes(8).toString("hex"), ...(authorization === undefined ? {} : { authorization }) },
      body: JSON.stringify(body)
    })
    return { status: response.status, text: await response.text() }
  })

describe("request bodies are strict", () => {
  layer(
    Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer({}, TestStore, Capture))), FetchLayer),
    { excludeTestServices: true }
  )((it) => {
    it.effect("an unknown field is INVALID, naming it", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const address = new Ed25519Keypair().toSuiAddress()
        const refused = yield* post(`${baseUrl}/v1/auth/challenge`, { address, admin: true })
        assert.strictEqual(refused.status, 400)
        const body = JSON.parse(refused.text) as Record<string, unknown>
        assert.strictEqual(body.code, "INVALID")
        assert.match(String(body.reason), /^body\.admin: /)
        assert.strictEqual((yield* post(`${baseUrl}/v1/auth/challenge`, { address })).status, 200)
      }))

    it.effect("every invalid field of a body is reported at once on every route, not only the first", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { session } = yield* fundedOwner(client)
        const refused = yield* post(`${baseUrl}/v1/delegated-signers`, {
          agentAddress: "0xnot-an-address",
          assetScopes: [{ asset: "SUI", totalBudgetAtomic: "0.5", maxPerPaymentAtomic: "1", window: { limitAtomic: "1", periodMs: 1.5 } }]
        }, session.authorization)
        assert.strictEqual(refused.status, 400)
        const body = JSON.parse(refused.text) as Record<string, unknown>
        assert.strictEqual(body.code, "INVALID")
        const fields = String(body.reason).split("; ").map((line) => line.slice(0, line.indexOf(":")))
        assert.includeMembers(fields, [
          "body.agentAddress",
          "body.assetScopes.0.asset",
          "body.assetScopes.0.totalBudgetAtomic",
          "body.assetScopes.0.window.periodMs"
        ])
        assert.include(String(body.message), "body.agentAddress, body.assetScopes.0.asset")
      }))

    it.effect("a body of many wrong items costs a bounded answer: a long array is refused by its length, and at most 20 issues are listed", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { session } = yield* fundedOwner(client)
        // 32,000 one-byte wrong items: decoded one by one, each would be an issue in the answer.
        const rule = { serviceIds: Array.from({ length: 32_000 }, () => 1), methods: [], paths: [], recipients: [], assets: [] }
        const long = yield* post(`${baseUrl}/v1/policies`, { name: "many", rule }, session.authorization)
        assert.strictEqual(long.status, 400)
        assert.deepStrictEqual(JSON.parse(long.text), {
          ok: false,
          code: "INVALID",
          message: "The request is invalid",
          reason: "body: an array holds more than 256 items; no field takes that many"
        })
        // 256 items pass the length check and are decoded: the answer lists 20 issues and counts the rest.
        const wide = yield* post(`${baseUrl}/v1/policies`, { name: "many", rule: { ...rule, serviceIds: rule.serviceIds.slice(0, 256) } }, session.authorization)
        assert.strictEqual(wide.status, 400)
        const body = JSON.parse(wide.text) as Record<string, unknown>
        assert.strictEqual(String(body.reason).split("; ").length, 21)
        assert.match(String(body.reason), /; and 236 more$/, "256 wrong items, 20 listed")
        assert.isBelow(wide.text.length, 4_000)
      }))

    it.effect("a private key anywhere in a body is refused before anything is stored or logged, and the refusal never repeats it", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { session } = yield* fundedOwner(client)
        const leaked = new Ed25519Keypair()
        const bech32 = leaked.getSecretKey()
        const rawHex = Buffer.from(randomBytes(32)).toString("hex")
        const rawBase64 = randomBytes(64).toString("base64")
        const agent = new Ed25519Keypair().toSuiAddress()
        const base = createRequest(agent, "k").payload

        const attempts: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
          [{ ...base, privateKey: bech32 }, "body.privateKey"],
          [{ ...base, name: `my key is ${bech32}` }, "body.name"],
          [{ ...base, agentSecret: `0x${rawHex}` }, "body.agentSecret"],
          [{ ...base, assetScopes: [{ ...base.assetScopes[0], seed: rawBase64 }] }, "body.assetScopes.0.seed"]
        ]
        for (const [payload, path] of attempts) {
          const refused = yield* post(`${baseUrl}/v1/delegated-signers`, payload, session.authorization)
          assert.strictEqual(refused.status, 400, refused.text)
          const body = JSON.parse(refused.text) as Record<string, unknown>
          assert.strictEqual(body.code, "INVALID")
          assert.strictEqual(body.reason, `${path}: looks like a private key; keys never leave the wallet`)
          for (const secret of [bech32, rawHex, rawBase64]) assert.notInclude(refused.text, secret)
        }

        const listed = yield* Effect.promise(() =>
          fetch(`${baseUrl}/v1/delegated-signers`, { headers: { authorization: session.authorization } }).then((r) => r.json() as Promise<{ delegatedSigners: Array<unknown> }>))
        assert.deepStrictEqual(listed.delegatedSigners, [], "nothing was written")
        assert.isAbove(logs.length, 5, "the server logged during the test")
        for (const secret of [bech32, rawHex, rawBase64]) {
          assert.isFalse(logs.some((line) => wholeLine(line).includes(secret)), "a private key reached the logs")
        }
      }))
  })
})
