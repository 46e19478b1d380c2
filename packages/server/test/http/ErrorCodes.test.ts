import { randomBytes } from "node:crypto"
import { connect } from "node:net"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { toBase58 } from "@mysten/sui/utils"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { createRequest, fundedOwner, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

/** Sends a request as-is and returns status and JSON body, to check both exactly. */
const raw = (baseUrl: string, method: string, path: string, authorization: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

const expectError = (response: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
  assert.strictEqual(response.status, status, JSON.stringify(response.body))
  assert.deepStrictEqual(Object.keys(response.body).sort(), ["code", "message", "ok", "reason"])
  assert.strictEqual(response.body.ok, false)
  assert.strictEqual(response.body.code, code)
  assert.isString(response.body.message)
  assert.isString(response.body.reason)
}

describe("every spec error code on the signer routes", () => {
  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("NOT_FOUND, UNSUPPORTED_ASSET, NOT_FINAL, FOREIGN_DIGEST, UNVERIFIED, TX_FAILED, CONFLICT and INVALID", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(baseUrl)
        const { owner, session, asOwner } = yield* fundedOwner(client)
        const auth = session.authorization
        const agent = new Ed25519Keypair().toSuiAddress()
        const finalizePath = (id: string, grantId: string, step = "") => `/v1/delegated-signers/${id}/grants/${grantId}${step}/finalize`

        expectError(yield* raw(baseUrl, "GET", "/v1/delegated-signers/ds_0000000000000000000000000z", auth), 404, "NOT_FOUND")

        const unfunded = CoinType.make(`0x${"7".repeat(64)}::usd::USD`)
        const unsupported = yield* raw(baseUrl, "POST", "/v1/delegated-signers", auth, {
          ...createRequest(agent, "k-unsupported").payload,
          idempotencyKey: "k-unsupported",
          assetScopes: [{ asset: unfunded, totalBudgetAtomic: "10", maxPerPaymentAtomic: "1" }]
        })
        expectError(unsupported, 400, "UNSUPPORTED_ASSET")

        const invalid = yield* raw(baseUrl, "POST", "/v1/delegated-signers", auth, {
          ...createRequest(agent, "k-invalid").payload,
          idempotencyKey: "k-invalid",
          assetScopes: [{ asset: SUI, totalBudgetAtomic: "10", maxPerPaymentAtomic: "11" }]
        })
        expectError(invalid, 400, "INVALID")
        assert.match(String(invalid.body.reason), /assetScopes\.0\.maxPerPaymentAtomic/)

        // Two signers of this owner, each with one grant.
        const a = yield* client.delegatedSigners.create(createRequest(agent, "k-a", 1000n, 100n)).pipe(asOwner)
        const b = yield* client.delegatedSigners.create(createRequest(agent, "k-b", 2000n, 200n)).pipe(asOwner)
        const [ga] = a.grants
        const [gb] = b.grants
        if (ga === undefined || gb === undefined) return assert.fail("grants")

        const digestA = yield* ledger.execute(ga.txKindBytes, owner)
        expectError(yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId), auth, { digest: digestA }), 409, "NOT_FINAL")
        yield* ledger.checkpoint
        // A digest the chain never saw (mistyped): still retryable, but the message names the fix.
        const mistyped = yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId), auth, { digest: toBase58(randomBytes(32)) })
        expectError(mistyped, 409, "NOT_FINAL")
        assert.strictEqual(mistyped.body.reason, "unknown_digest")
        assert.include(String(mistyped.body.message), "present the same digest again in a few seconds")
        assert.include(String(mistyped.body.message), "If it stays unknown, check the digest")

        // B's create transaction is final, but it is not what A prepared: the first field that differs is its nonce, B's grant id.
        const digestB = yield* ledger.execute(gb.txKindBytes, owner)
        yield* ledger.checkpoint
        const unverified = yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId), auth, { digest: digestB })
        expectError(unverified, 502, "UNVERIFIED")
        assert.strictEqual(unverified.body.reason, `nonce: is not ${ga.grantId}`)

        // The same kind signed and sent by someone else: it aborts on chain (not the pool owner), but first it is foreign.
        const stranger = new Ed25519Keypair()
        yield* ledger.fundPool(stranger, SUI, 10_000n)
        const strangers = yield* ledger.executeAsIs(ga.txKindBytes, stranger)
        yield* ledger.checkpoint
        const foreign = yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId), auth, { digest: strangers })
        expectError(foreign, 502, "FOREIGN_DIGEST")

        const done = yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId), auth, { digest: digestA })
        assert.strictEqual(done.status, 200)
        expectError(yield* raw(baseUrl, "POST", finalizePath(b.delegatedSignerId, gb.grantId), auth, { digest: digestA }), 409, "CONFLICT")

        // Pausing twice on chain: the second transaction aborts, and finalizing it is TX_FAILED.
        const pause = yield* client.delegatedSigners.preparePause({ params: { id: a.delegatedSignerId } }).pipe(asOwner)
        const kind = pause.grants[0]
        if (kind === undefined) return assert.fail("pause kind")
        const paused = yield* ledger.execute(kind.txKindBytes, owner)
        yield* ledger.checkpoint
        const again = yield* ledger.executeAsIs(kind.txKindBytes, owner)
        yield* ledger.checkpoint
        assert.notStrictEqual(again, paused)
        const failed = yield* raw(baseUrl, "POST", finalizePath(a.delegatedSignerId, ga.grantId, "/pause"), auth, { digest: again })
        expectError(failed, 502, "TX_FAILED")
        assert.match(String(failed.body.reason), /EAlreadyPaused/)
      }))

    it.effect("requests Node itself refuses (malformed HTTP, oversized headers) still get the INVALID body", () =>
      Effect.gen(function*() {
        const { hostname, port } = new URL(yield* BaseUrl)
        const exchange = (request: string) =>
          Effect.promise(() =>
            new Promise<string>((resolve, reject) => {
              const socket = connect(Number(port), hostname, () => socket.end(request))
              let answer = ""
              socket.on("data", (chunk) => (answer += chunk.toString()))
              socket.on("close", () => resolve(answer))
              socket.on("error", reject)
            })
          )
        for (const [request, reason] of [
          ["NOT HTTP AT ALL\r\n\r\n", "malformed_http_request"],
          [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, "headers_too_large"]
        ] as const) {
          const answer = yield* exchange(request)
          assert.match(answer, /^HTTP\/1\.1 400 /, reason)
          expectError({ status: 400, body: JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Record<string, unknown> }, 400, "INVALID")
          assert.include(answer, reason)
        }
      }))

    it.effect("a method a path does not serve is NOT_FOUND with status 404, before any session check", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        for (
          const [method, path] of [["PATCH", "/v1/auth/challenge"], ["PUT", "/v1/policies"], ["DELETE", "/health"]] as const
        ) {
          const response = yield* raw(baseUrl, method, path, "Bearer not-a-session", {})
          expectError(response, 404, "NOT_FOUND")
          assert.strictEqual(response.body.reason, "unknown_route")
        }
      }))
  })
})
