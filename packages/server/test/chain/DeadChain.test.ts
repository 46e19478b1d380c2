import { randomBytes } from "node:crypto"
import { createServer } from "node:net"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, References } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { AppConfig } from "../../src/Config.ts"
import { layerServerLive, layerStore } from "../../src/Server.ts"
import { failsWith } from "../support/Assertions.ts"
import { createRequest, SUI } from "../support/Scenario.ts"
import { BaseUrl, testConfig, TestStore } from "../support/TestServer.ts"

/** A loopback port nothing listens on: bound once by the OS, then closed. */
const deadPort = Effect.promise(() =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
)

/** A live-mode gateway whose SUI_GRPC_URL points at that dead port. */
const DeadChainServer = Layer.unwrap(
  Effect.map(deadPort, (port) => {
    const url = `http://127.0.0.1:${port}`
    // Live mode needs its own credentials key (it never makes one in the store).
    const credentialsKey = Option.some(Redacted.make(randomBytes(32).toString("base64")))
    const config = { ...testConfig, network: "testnet", suiGrpcUrl: Option.some(url), credentialsKey }
    return Layer.effect(BaseUrl, HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))).pipe(
      Layer.provideMerge(layerServerLive(url)),
      Layer.provideMerge(layerStore(TestStore)),
      Layer.provide(AppConfig.layer(config)),
      Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error")),
      Layer.orDie
    )
  })
)

const signerRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ n: unknown }>`SELECT (SELECT count(*) FROM delegated_signers) + (SELECT count(*) FROM grants) AS n`
  return Number(rows[0]?.n)
})

describe("a live gateway whose chain is down", () => {
  layer(Layer.mergeAll(DeadChainServer, FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("starts, answers /health 503 naming the chain, refuses chain-backed routes with 503 UNAVAILABLE, and writes nothing", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const health = yield* Effect.promise(() => fetch(`${baseUrl}/health`).then(async (r) => ({ status: r.status, body: await r.json() })))
        assert.strictEqual(health.status, 503)
        assert.deepStrictEqual(health.body, { ok: false, store: "up", chain: "down", network: "sui:testnet" })
        // No local ledger in live mode: nothing answers at /sui.
        assert.strictEqual((yield* Effect.promise(() => fetch(`${baseUrl}/sui/sui.rpc.v2.LedgerService/GetServiceInfo`, { method: "POST" }))).status, 404)

        const client = yield* makeApiClient(baseUrl)
        const asOwner = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const before = yield* signerRows
        const refusals = [
          yield* failsWith(client.spendAccounts.list().pipe(asOwner), "UNAVAILABLE"),
          yield* failsWith(client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("10") } }).pipe(asOwner), "UNAVAILABLE"),
          yield* failsWith(client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "dead-chain")).pipe(asOwner), "UNAVAILABLE")
        ]
        // One stable reason, whatever the transport said (its text names the node's address): that stays in the log.
        assert.deepStrictEqual(refusals.map((e) => [e.message, e.reason]), Array(3).fill(["The chain is unavailable", "chain_unreachable"]))
        assert.strictEqual(yield* signerRows, before)
        assert.strictEqual((yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)).delegatedSigners.length, 0)
      }))

    it.effect("stays ready (the chain is not part of readiness) and live, while /health is 503", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const get = (path: string) => Effect.promise(() => fetch(`${baseUrl}${path}`).then(async (r) => ({ status: r.status, body: await r.json() })))
        assert.strictEqual((yield* get("/health")).status, 503)
        assert.deepStrictEqual(yield* get("/health/ready"), { status: 200, body: { ok: true, store: "up", migrations: "done" } })
        assert.deepStrictEqual(yield* get("/health/live"), { status: 200, body: { ok: true } })
      }))
  })
})
