import { mkdtempSync, rmSync } from "node:fs"
import { createServer, get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { payingAgent } from "../../../../scripts/bench/PayingAgent.ts"
import { type RunningServer, startGateway } from "../../../../scripts/bench/ServerProcess.ts"
import { makeWallets } from "../../../../scripts/bench/Wallets.ts"
import { buildServer } from "../../build.ts"

/** A seller's API that holds each answer until the test releases it: a paid call kept in flight. */
const holdingUpstream = () =>
  new Promise<{ readonly url: string; readonly arrived: Promise<void>; readonly release: () => void; readonly close: () => void }>((resolve) => {
    let arrive = () => {}
    let release = () => {}
    const arrived = new Promise<void>((r) => (arrive = r))
    const released = new Promise<void>((r) => (release = r))
    const server = createServer((_request, response) => {
      arrive()
      void released.then(() => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ answer: 42 })))
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}/x`, arrived, release, close: () => server.close() })
    })
  })

/** A GET on a fresh connection (never a pooled one): its status, or "refused". */
const freshGet = (url: string) =>
  new Promise<number | "refused">((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on("error", () => resolve("refused"))
  })

const LIMITS = { SIGN_IN_PER_MINUTE: "1000", SIGN_IN_CHALLENGES_PER_MINUTE: "1000" }

/**
 * SIGTERM, as an orchestrator stops a replica: `/health/ready` answers 503 while the gateway still serves (for
 * SHUTDOWN_DELAY_MS, so a load balancer takes it out of rotation first), then it stops accepting, lets the paid call
 * in flight finish (its forward, its settlement, its record), closes the store and exits 0 within SHUTDOWN_GRACE_MS.
 */
describe("a graceful stop", () => {
  const running: Array<RunningServer> = []
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-stop-"))
  beforeAll(() => buildServer(), 120_000)
  afterAll(async () => {
    for (const gateway of running) if (gateway.process.exitCode === null) await gateway.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("SIGTERM with a paid call in flight: readiness goes first, then new connections are refused; the call is answered and recorded, and the process exits 0 within the grace", async () => {
    const upstream = await holdingUpstream()
    const env = { DATA_DIR: dataDir, UPSTREAM_ALLOW_HOSTS: new URL(upstream.url).host, SHUTDOWN_GRACE_MS: "20000", SHUTDOWN_DELAY_MS: "1000", ...LIMITS }
    const gateway = await startGateway(env)
    running.push(gateway)
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      gateway.process.once("exit", (code, signal) => resolve({ code, signal }))
    )
    const { entry, agentKey, manifest, asSeller, wallets } = await Effect.runPromise(
      Effect.gen(function*() {
        const wallets = yield* makeWallets(gateway.url, gateway.url)
        return { ...yield* payingAgent(wallets, upstream.url, "graceful stop"), wallets }
      }).pipe(Effect.provide(FetchLayer))
    )
    const paid = Effect.runPromise(makeAgent({ manifest, signer: agentKey, client: wallets.sui }).fetchPaid(entry.resourceUrl).pipe(Effect.provide(FetchLayer)))
    await upstream.arrived
    const stoppedAt = Date.now()
    gateway.process.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 300))
    assert.strictEqual(await freshGet(`${gateway.url}/health/ready`), 503, "first out of rotation")
    assert.strictEqual(await freshGet(`${gateway.url}/health/live`), 200, "while still serving")
    await new Promise((r) => setTimeout(r, 1500))
    assert.strictEqual(await freshGet(`${gateway.url}/health/live`), "refused", "then it takes no new connection")
    assert.isNull(gateway.process.exitCode, "it waits for the call in flight")
    upstream.release()
    const { response, receipt } = await paid
    assert.strictEqual(response.status, 200)
    assert.deepInclude(await response.json(), { answer: 42 })
    assert.isTrue(receipt?.success, "the payment settled before the answer")
    const exit = await exited
    assert.deepStrictEqual(exit, { code: 0, signal: null })
    assert.isBelow(Date.now() - stoppedAt, 20_000)

    // The record survived the stop: a new process on the same data shows the payment settled.
    const again = await startGateway(env)
    running.push(again)
    const payments = await Effect.runPromise(
      Effect.gen(function*() {
        const api = yield* makeApiClient(again.url)
        return yield* api.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(asSeller)
      }).pipe(Effect.provide(FetchLayer))
    )
    assert.strictEqual(payments.payments.length, 1)
    assert.strictEqual(payments.payments[0]?.outcome.state, "settled")
    upstream.close()
  }, 180_000)
})
