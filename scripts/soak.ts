/**
 * `npm run soak`: three gateway replicas in live mode under `npm run load`'s traffic mix and two faults.
 * One standalone ledger (`npm run ledger`'s entry, its own process) is the chain; one fresh PostgreSQL
 * schema (DATABASE_URL, or postgres://postgres@127.0.0.1:5432/test; dropped at the end) is the store;
 * three replicas (the bundle `npm start` runs, one process each, same CREDENTIALS_KEY, SPONSOR_KEY and
 * limits) sit behind a round-robin proxy in this process. SOAK_LANES (12) lanes run for SOAK_SECONDS (60);
 * at a third one replica is SIGKILLed and restarted, at two thirds another is SIGTERMed and must drain and
 * exit 0. Then the store is checked against the chain, every request must have had an answer, and a
 * per-address sign-in limit counted in the store must have held across the replicas. Prints the report;
 * exits non-zero on any inconsistency, lost request or failed fault.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Console, Effect } from "effect"
import { FetchLayer, type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { localUpstream } from "./LocalUpstream.ts"
import { freePort } from "./bench/ServerProcess.ts"
import { checkAgainst } from "./load/Consistency.ts"
import { amount, KINDS, runLane, SUI } from "./load/Lane.ts"
import { makeStats } from "./load/Stats.ts"
import { grpcAudit, soakLedger } from "./soak/Chain.ts"
import { runFaults } from "./soak/Faults.ts"
import { signInBurst, SIGN_IN_LIMIT } from "./soak/Limits.ts"
import { startProxy } from "./soak/Proxy.ts"
import { awaitRecovery, UPSTREAM_TIMEOUT_MS } from "./soak/Recovery.ts"
import { makeReplica, type Replica } from "./soak/Replicas.ts"
import { type Observed, report, verdict } from "./soak/Report.ts"
import { soakStore } from "./soak/Store.ts"

const SECONDS = Number(process.env["SOAK_SECONDS"] ?? 60)
const LANES = Number(process.env["SOAK_LANES"] ?? 12)
const PRICE = 10n
/** Lanes finish the flow under way after the deadline; one still running this long after it has a request that never got an answer. */
const LANES_GRACE_MS = 120_000
/** The limit burst starts this long after the lanes, under their load and before the first fault (at a third of the run). */
const BURST_AFTER_MS = 1_000

/**
 * What every replica gets: the ledger's own variables, the store, one CREDENTIALS_KEY and SPONSOR_KEY, the
 * proxy as PUBLIC_URL (resource URLs and sign-in messages name what callers use), and limits raised for
 * loopback (every lane is one client address) except the per-address sign-in limit the burst checks.
 */
const replicaEnv = (shared: { readonly chain: Record<string, string>; readonly databaseUrl: string; readonly sponsorKey: string; readonly publicUrl: string; readonly upstreamHost: string }) => ({
  ...shared.chain,
  DATABASE_URL: shared.databaseUrl,
  PUBLIC_URL: shared.publicUrl,
  CREDENTIALS_KEY: randomBytes(32).toString("base64"),
  SPONSOR_KEY: shared.sponsorKey,
  UPSTREAM_ALLOW_HOSTS: shared.upstreamHost,
  // The loopback seller answers at once; a short timeout lets the gateway's own recovery end the kill's leftovers within the run.
  UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
  SIGN_IN_PER_MINUTE: String(SIGN_IN_LIMIT),
  SIGN_IN_CHALLENGES_PER_MINUTE: "1000000",
  PAYMENT_CHALLENGES_PER_MINUTE: "1000000000",
  PAYMENT_FAILURES_PER_MINUTE: "1000000",
  SPONSOR_PAYMENT_REQUESTS_PER_PAYER_PER_MINUTE: "1000000",
  SPONSOR_PAYMENT_GAS_PER_MINUTE: "1000000000000000",
  SPONSOR_PAYMENT_GAS_PER_GRANT_OWNER_PER_DAY: "1000000000000000",
  SPONSOR_PAYMENT_GAS_PER_PAYER_PER_DAY: "1000000000000000",
  // Three access logs at a few hundred requests a second would cost the two cores more than the gateways do.
  LOG_LEVEL: "warn"
})

/** The ledger, the store, the seller's upstream, the proxy and three replicas, all released with the scope. */
const setUp = Effect.gen(function*() {
  const store = yield* soakStore
  const { ledger, sponsorKey } = yield* soakLedger
  const upstream = yield* localUpstream()
  const names = ["r1", "r2", "r3"]
  const ports = yield* Effect.forEach(names, () => Effect.promise(freePort))
  const targets = names.map((name, i) => ({ name, port: ports[i] ?? 0 }))
  const proxy = yield* Effect.acquireRelease(Effect.promise(() => startProxy(targets)), (p) => Effect.promise(p.close))
  const logDir = yield* Effect.acquireRelease(Effect.sync(() => mkdtempSync(join(tmpdir(), "soak-logs-"))), (dir) =>
    Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const env = replicaEnv({ chain: ledger.gatewayEnv, databaseUrl: store.replicaUrl, sponsorKey, publicUrl: proxy.url, upstreamHost: new URL(upstream.url).host })
  const replicas = targets.map((t) => makeReplica(t.name, t.port, env, logDir))
  // Whatever is still running when the scope closes (a failed run) is killed: never left behind.
  yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all(replicas.map((r) => r.signal("SIGKILL")))))
  const readyMs = yield* Effect.forEach(replicas, (r) => Effect.promise(r.start), { concurrency: "unbounded" })
  yield* Console.log(`soak: ${SECONDS} s, ${LANES} lanes; store: ${store.description}; chain: ledger at ${ledger.origin}; ` +
    `replicas ready in ${readyMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")} behind ${proxy.url}`)
  return { store, ledger, upstream, proxy, replicas }
})

/** A seller signs in through the proxy and lists one paid service; its upstream is the loopback one. */
const registerService = (client: GatewayClient, upstreamUrl: string) =>
  Effect.gen(function*() {
    const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
    const { service } = yield* client.sellers.register({
      payload: { name: "soak", description: "soak target", method: "GET", path: "/x", price: amount(PRICE), asset: SUI, decimals: 9, payTo, upstreamUrl }
    }).pipe(asSeller)
    const entry = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service
    return { id: entry.id, resourceUrl: entry.resourceUrl, payTo }
  })

/** The lanes, the faults and the limit burst at once, on one clock. */
const runTraffic = (ctx: Effect.Success<typeof setUp>, client: GatewayClient, service: Effect.Success<ReturnType<typeof registerService>>) =>
  Effect.gen(function*() {
    const sui = new SuiGrpcClient({ network: "localnet", baseUrl: ctx.ledger.gatewayEnv.SUI_GRPC_URL })
    const stats = makeStats(KINDS)
    const t0 = Date.now()
    const deadline = t0 + SECONDS * 1000
    const [kill, term] = [ctx.replicas[0], ctx.replicas[1]]
    if (kill === undefined || term === undefined) return yield* Effect.die("three replicas expected")
    const faults = runFaults(kill, term, t0, SECONDS, ctx.proxy)
    const laneContext = { client, baseUrl: ctx.proxy.url, faucetUrl: ctx.ledger.origin, sui, stats, service: { id: service.id, resourceUrl: service.resourceUrl }, deadline }
    const lanes = Effect.forEach(Array.from({ length: LANES }, (_, i) => i), (i) => runLane(laneContext, i), { concurrency: "unbounded" }).pipe(
      Effect.timeout(SECONDS * 1000 + LANES_GRACE_MS),
      Effect.option
    )
    // The burst comes early, while all three replicas serve, so every one of them admits some.
    const burst = Effect.andThen(Effect.sleep(BURST_AFTER_MS), signInBurst(client)).pipe(Effect.provide(ctx.store.layer), Effect.option)
    const [laneRecords, limit] = yield* Effect.all([lanes, burst, faults.program], { concurrency: "unbounded" })
    return { sui, stats, t0, faults: faults.outcome, laneRecords, limit, elapsedSeconds: (Date.now() - t0) / 1000 }
  })

/** SIGTERM to every replica still running, in turn: each must drain and exit 0 too. */
const stopAll = (replicas: ReadonlyArray<Replica>) =>
  Effect.forEach(replicas.filter((r) => r.running()), (r) => Effect.map(Effect.promise(() => r.signal("SIGTERM")), (end) => ({ replica: r.name, end })))

const program = Effect.gen(function*() {
  const ctx = yield* setUp
  const client = yield* makeApiClient(ctx.proxy.url)
  const service = yield* registerService(client, ctx.upstream.url)
  const traffic = yield* runTraffic(ctx, client, service)
  const records = traffic.laneRecords._tag === "Some" ? traffic.laneRecords.value : []
  const recovery = yield* awaitRecovery.pipe(Effect.provide(ctx.store.layer), Effect.option)
  const audit = grpcAudit(traffic.sui, ctx.ledger.gatewayEnv.SPEND_ACCOUNT_PACKAGE)
  const consistency = yield* checkAgainst({ client, audit, sui: traffic.sui, lanes: records, service: { id: service.id, price: PRICE, payTo: service.payTo } }).pipe(
    Effect.provide(ctx.store.layer),
    Effect.tapCause((cause) => Console.error("soak: the consistency check failed", cause)),
    Effect.option
  )
  const stops = yield* stopAll(ctx.replicas)
  const observed: Observed = {
    elapsedSeconds: traffic.elapsedSeconds,
    lanesFinished: traffic.laneRecords._tag === "Some",
    stats: traffic.stats,
    books: ctx.proxy.books,
    consistency: consistency._tag === "Some" ? consistency.value : undefined,
    limit: traffic.limit._tag === "Some" ? traffic.limit.value : undefined,
    recovery: recovery._tag === "Some" ? recovery.value : undefined,
    faults: traffic.faults,
    stops,
    t0: traffic.t0
  }
  const failed = verdict(observed).length > 0
  // A failed run's replica logs say what the gateways saw; they go with the scope otherwise.
  if (failed) yield* Console.log(ctx.replicas.map((r) => `--- ${r.name} log (last lines)\n${r.tail()}`).join("\n"))
  yield* Console.log(report(observed, `soak: three replicas, ${LANES} lanes, ${SECONDS} s`).join("\n"))
  return !failed
})

program.pipe(Effect.scoped, Effect.provide(FetchLayer), Effect.runPromise).then((ok) => process.exit(ok ? 0 : 1), (error: unknown) => {
  console.error(error)
  process.exit(1)
})
