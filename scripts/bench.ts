/**
 * `npm run bench`: throughput and latency of the gateway, each figure beside
 * a baseline measured in the same run, printed as a table and written to
 * bench/results.json and bench/results.svg. Bounded: a few seconds per load.
 * Part A runs the real server as `npm start` does, in its own process (PGlite,
 * or PostgreSQL when DATABASE_URL is set) and loads it from this process with
 * autocannon. Part B starts the gateway the same way (LocalLedger
 * checkpointing every 20 ms) to time the signer lifecycle stage by stage and
 * a paid call against an upstream in this process; its owners and agent are
 * wallets in this process that reach the ledger through a `SuiGrpcClient` on
 * the gateway's `/sui` over HTTP, with SUI from its faucet, and wait for a
 * checkpoint as a wallet does, by reading the transaction until it has one. Beside our 402
 * minting runs a peer: `@x402/express`'s payment middleware offering the same
 * terms in its own process (bench/X402Peer.ts). `BENCH_ONLY=402` runs just
 * those two loads and prints them, `BENCH_ONLY=lifecycle` just part B, for
 * working on either; `BENCH_CPU_PROFILE_DIR=<dir>` has part B's gateway write
 * a V8 CPU profile there when it stops.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Duration, Effect, Record } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { untilCheckpointed } from "@gateway/client/Finality"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { startBaseline } from "./bench/Baseline.ts"
import { measurePageWeight } from "./bench/PageWeight.ts"
import { barChart } from "./bench/Chart.ts"
import { interleavedMedians, load, type LoadFigures } from "./bench/Load.ts"
import { machineTimes, stealShare } from "./bench/HostSteal.ts"
import { cpuMs, type RunningServer, rssMiB, startGateway } from "./bench/ServerProcess.ts"
import { peerOfferOf, startX402Peer } from "./bench/X402Peer.ts"
import { localUpstream } from "./LocalUpstream.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ONLY_402 = process.env.BENCH_ONLY === "402"
const ONLY_LIFECYCLE = process.env.BENCH_ONLY === "lifecycle"
/** How many live services part A seeds, all from one seller. */
const SEEDED = ONLY_402 ? 1 : 1000
const SUI = CoinType.make(SUI_COIN_TYPE)
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}
const median = (values: ReadonlyArray<number>) => percentile(values, 50)
const time = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.timed(self), ([duration, value]) => ({ ms: Duration.toMillis(duration), value }))

const terms = (name: string, payTo: SuiAddress, upstreamUrl = "http://127.0.0.1:9/x") => ({
  name,
  description: `${name}: one answer per call`,
  method: "GET" as const,
  path: "/x",
  price: PositiveAtomicAmount.make("1000"),
  asset: SUI,
  decimals: 9,
  payTo,
  upstreamUrl
})

/** Progress on stderr, so a person running it sees where it is; the results go to stdout. */
const step = (message: string) => Effect.sync(() => process.stderr.write(`▸ ${message}\n`))

/** Part A: the server in its own process, loaded over loopback. */
const partA = Effect.gen(function*() {
  if (!ONLY_402) yield* step("start-up, three times each")
  const pglite = process.env.DATABASE_URL === undefined
  // The seeded services name the discard port on loopback, which only an allow-listed upstream may be;
  // one seller seeds them all, so its limits must hold the 1,000 live services and the drafts in flight.
  // The 402 load comes from one client (loopback): its challenges are counted as any client's, never refused.
  const env = {
    UPSTREAM_ALLOW_HOSTS: "127.0.0.1:9",
    SELLER_MAX_LIVE: String(SEEDED),
    SELLER_MAX_DRAFTS: String(SEEDED),
    PAYMENT_CHALLENGES_PER_MINUTE: "1000000000",
    ...(pglite ? { DATA_DIR: "memory://" } : {})
  }
  const startupRuns = (runEnv: Record<string, string>) =>
    Effect.forEach([1, 2, 3], () =>
      Effect.gen(function*() {
        const probe = yield* Effect.promise(() => startGateway(runEnv))
        yield* Effect.promise(probe.stop)
        return probe.startupMs
      }))
  const startups = ONLY_402 ? [] : yield* startupRuns(env)
  // `npm start` keeps PGlite in ./data: after the first start, every start is a restart on a data dir.
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-bench-"))
  const restarts = pglite && !ONLY_402
    ? yield* Effect.gen(function*() {
      const first = yield* Effect.promise(() => startGateway({ DATA_DIR: dataDir }))
      yield* Effect.promise(first.stop)
      return yield* startupRuns({ DATA_DIR: dataDir })
    })
    : []
  rmSync(dataDir, { recursive: true, force: true })
  yield* step(ONLY_402 ? "seeding one live service" : "seeding 1,000 live services")
  const gateway = yield* Effect.promise(() => startGateway(env))
  const pid = gateway.process.pid ?? 0
  const rssIdle = rssMiB(pid)
  const client = yield* makeApiClient(gateway.url)
  const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
  const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
  const ids = yield* Effect.forEach(Array.from({ length: SEEDED }, (_, i) => i), (i) =>
    Effect.gen(function*() {
      const { service } = yield* client.sellers.register({ payload: terms(`bench service ${i}`, payTo) }).pipe(asSeller)
      yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
      return service.id
    }), { concurrency: 16 })
  const id = ids[Math.floor(ids.length / 2)]
  if (id === undefined) return yield* Effect.die("no services were seeded")
  const entry = yield* client.services.get({ params: { id } })
  /** The loads at these URLs, interleaved round by round (bench/Load.ts), each one's median. */
  const sideBySide = <K extends string>(urls: Record<K, string>) =>
    Effect.promise(() => interleavedMedians(Record.map(urls, (url) => () => load({ url, connections: 32, seconds: SECONDS }))))
  const offer = yield* Effect.promise(() => peerOfferOf(entry.resourceUrl))
  const minting = Effect.gen(function*() {
    const peer = yield* Effect.promise(() => startX402Peer(offer))
    const { challenges, peerChallenges } = yield* sideBySide({ challenges: entry.resourceUrl, peerChallenges: peer.url })
    yield* Effect.promise(peer.stop)
    // The ratio compares challenges only: say so when either side answered anything but a 402.
    for (const [side, figures] of [["ours", challenges], ["peer", peerChallenges]] as const) {
      const other = Object.entries(figures.statusCodes).filter(([code]) => code !== "402")
      if (other.length > 0 || figures.errors > 0) yield* step(`402 minting, ${side}: also answered ${JSON.stringify(Object.fromEntries(other))}, ${figures.errors} errors`)
    }
    return { challenges, peerChallenges }
  })
  if (ONLY_402) {
    yield* step("loads: 402 minting, ours and the @x402/express peer")
    const only = yield* minting
    yield* Effect.promise(gateway.stop)
    return { _tag: "Only402" as const, ...only }
  }
  const baseline = yield* Effect.promise(() => startBaseline(JSON.stringify(entry)))
  yield* step("loads: baseline, get by id, search, 402 minting, the @x402/express peer's 402 minting")
  const { baselineFigures, getById, search } = yield* sideBySide({
    baselineFigures: baseline.url,
    getById: `${gateway.url}/v1/services/${id}`,
    search: `${gateway.url}/v1/services?q=service%2042`
  })
  const { challenges, peerChallenges } = yield* minting
  const rssAfter = rssMiB(pid)
  yield* step("first load of the console at / in headless Chromium")
  const page = yield* Effect.promise(() => measurePageWeight(gateway.url))
  yield* Effect.promise(baseline.stop)
  yield* Effect.promise(gateway.stop)
  return {
    _tag: "Full" as const,
    page,
    startupMs: median(startups),
    startups,
    restartMs: median(restarts),
    restarts,
    rssIdle,
    rssAfter,
    baseline: baselineFigures,
    getById,
    search,
    challenges,
    peerChallenges,
    /** Ours over the peer's 402s per second: the goal is at least 1. */
    challengesToPeer: challenges.requestsPerSecond / peerChallenges.requestsPerSecond
  }
})

/** Until the ledger has put `digest` in a checkpoint, read as the agent SDK reads it: what a wallet does before it asks the gateway to finalize. */
const checkpointed = (sui: SuiGrpcClient, digest: string) => Effect.promise(() => untilCheckpointed(sui, digest, 30_000))

/** Part B: the gateway in its own process; the owners and the agent are wallets here, on its `/sui`; `upstream` the seller's API. */
const partBOn = (upstream: { readonly url: string }, gateway: RunningServer) => Effect.gen(function*() {
  const baseUrl = gateway.url
  const sui = new SuiGrpcClient({ network: "localnet", baseUrl: `${baseUrl}/sui` })
  const faucet = (address: string) => Effect.promise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: address }))
  const client = yield* makeApiClient(baseUrl)
  const owner = new Ed25519Keypair()
  yield* faucet(owner.toSuiAddress())
  const asOwner = withOwner((yield* signIn(client, owner)).authorization)
  const fund = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("1000000000") } }).pipe(asOwner)
  yield* executeKind(fund.txKindBytes, owner, sui)
  yield* Effect.sleep("100 millis")

  // Gas coins are owned objects: give each concurrent lane its own owner key.
  const lanes = yield* Effect.forEach(Array.from({ length: 8 }, () => new Ed25519Keypair()), (key) =>
    Effect.gen(function*() {
      yield* faucet(key.toSuiAddress())
      const as = withOwner((yield* signIn(client, key)).authorization)
      const prepared = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("1000000000") } }).pipe(as)
      yield* executeKind(prepared.txKindBytes, key, sui)
      return { key, as }
    }))
  yield* Effect.sleep("100 millis")

  yield* step("signer lifecycle, 8 lanes")
  const stages = { build: [] as Array<number>, execute: [] as Array<number>, finality: [] as Array<number>, finalize: [] as Array<number> }
  const cycles = 20
  const gatewayPid = gateway.process.pid ?? Number.NaN
  const gatewayCpuBefore = cpuMs(gatewayPid)
  const walletsCpuBefore = process.cpuUsage()
  const started = performance.now()
  yield* Effect.forEach(lanes, ({ key, as }, lane) =>
    Effect.forEach(Array.from({ length: cycles }, (_, i) => i), (i) =>
      Effect.gen(function*() {
        const created = yield* time(client.delegatedSigners.create({
          headers: { "idempotency-key": `bench-${lane}-${i}` },
          payload: {
            agentAddress: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
            assetScopes: [{ asset: SUI, totalBudgetAtomic: PositiveAtomicAmount.make("1000"), maxPerPaymentAtomic: PositiveAtomicAmount.make("100") }]
          }
        }).pipe(as))
        const grant = created.value.grants[0]
        if (grant === undefined) return yield* Effect.die("no grant")
        const executed = yield* time(executeKind(grant.txKindBytes, key, sui))
        const finality = yield* time(checkpointed(sui, executed.value.digest))
        const finalized = yield* time(client.delegatedSigners.finalizeCreate({
          params: { id: created.value.delegatedSignerId, grantId: grant.grantId },
          payload: { digest: executed.value.digest }
        }).pipe(as))
        stages.build.push(created.ms)
        stages.execute.push(executed.ms)
        stages.finality.push(finality.ms)
        stages.finalize.push(finalized.ms)
      }), { discard: true }), { concurrency: 8, discard: true })
  const lifecycleSeconds = (performance.now() - started) / 1000
  const cyclesPerSecond = (lanes.length * cycles) / lifecycleSeconds
  const walletsCpu = process.cpuUsage(walletsCpuBefore)
  // Where the cycles' CPU went: the gateway's process (API, store, LocalLedger) and this one's wallets.
  const cpuPerCycle = {
    gateway: (cpuMs(gatewayPid) - gatewayCpuBefore) / (lanes.length * cycles),
    wallets: (walletsCpu.user + walletsCpu.system) / 1000 / (lanes.length * cycles)
  }

  yield* step("paid calls against the seller directly")
  // A paid call end to end against calling the seller directly.
  const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
  const { service } = yield* client.sellers.register({ payload: terms("paid bench", SuiAddress.make(new Ed25519Keypair().toSuiAddress()), upstream.url) }).pipe(asSeller)
  yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
  const agentKey = new Ed25519Keypair()
  yield* faucet(agentKey.toSuiAddress())
  const signer = yield* client.delegatedSigners.create({
    headers: { "idempotency-key": "bench-agent" },
    payload: {
      agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
      assetScopes: [{ asset: SUI, totalBudgetAtomic: PositiveAtomicAmount.make("1000000000"), maxPerPaymentAtomic: PositiveAtomicAmount.make("1000") }]
    }
  }).pipe(asOwner)
  const grant = signer.grants[0]
  if (grant === undefined) return yield* Effect.die("no grant")
  const digest = (yield* executeKind(grant.txKindBytes, owner, sui)).digest
  yield* checkpointed(sui, digest)
  yield* client.delegatedSigners.finalizeCreate({ params: { id: signer.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
  const manifest = yield* client.delegatedSigners.manifest({ params: { id: signer.delegatedSignerId } }).pipe(asOwner)
  const agent = makeAgent({ manifest, signer: agentKey, client: sui })
  const entry = yield* client.services.get({ params: { id: service.id } })
  const direct: Array<number> = []
  const paid: Array<number> = []
  for (let i = 0; i < 30; i++) {
    direct.push((yield* time(Effect.promise(() => fetch(upstream.url).then((r) => r.text())))).ms)
    paid.push((yield* time(agent.fetchPaid(entry.resourceUrl))).ms)
  }
  const split = (values: ReadonlyArray<number>) => ({ p50: median(values), p99: percentile(values, 99) })
  return {
    cyclesPerSecond,
    cpuPerCycle,
    stages: { build: split(stages.build), execute: split(stages.execute), finality: split(stages.finality), finalize: split(stages.finalize) },
    paidCall: { direct: split(direct), paid: split(paid), addedP50: median(paid) - median(direct), addedP99: percentile(paid, 99) - percentile(direct, 99) }
  }
})

/** The seller's API listens first, so the gateway can name it in its upstream allow-list. */
const partB = Effect.gen(function*() {
  const upstream = yield* localUpstream()
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR
  const gateway = yield* Effect.acquireRelease(
    Effect.promise(() =>
      startGateway({
        ...(process.env.DATABASE_URL === undefined ? { DATA_DIR: "memory://" } : {}),
        LEDGER_CHECKPOINT_MS: "20",
        UPSTREAM_ALLOW_HOSTS: new URL(upstream.url).host,
        // Every owner, seller and agent signs in and pays from loopback, one client address.
        SIGN_IN_PER_MINUTE: "1000000",
        SIGN_IN_CHALLENGES_PER_MINUTE: "1000000",
        PAYMENT_CHALLENGES_PER_MINUTE: "1000000000",
        PAYMENT_FAILURES_PER_MINUTE: "1000000"
      }, profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`])
    ),
    (running) => Effect.promise(running.stop)
  )
  return yield* partBOn(upstream, gateway)
})

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a")
const line = (name: string, f: LoadFigures, baseline?: LoadFigures) =>
  `| ${name} | ${fmt(f.requestsPerSecond, 0)} | ${fmt(f.p50)} | ${fmt(f.p99)} | ${baseline === undefined ? "" : fmt(f.requestsPerSecond / baseline.requestsPerSecond, 2)} |`

const lifecycleLines = (b: Effect.Success<typeof partB>) => [
  `signer lifecycle (create → dry run, sign, execute over gRPC-web → checkpoint → finalize), concurrency 8: ${fmt(b.cyclesPerSecond, 1)} cycles/s`,
  "| stage | p50 ms | p99 ms |",
  "|---|---|---|",
  ...Object.entries(b.stages).map(([stage, s]) => `| ${stage} | ${fmt(s.p50)} | ${fmt(s.p99)} |`),
  `CPU per cycle: the gateway's process ${fmt(b.cpuPerCycle.gateway)} ms (API, store and LocalLedger), the wallets ${fmt(b.cpuPerCycle.wallets)} ms`
]

const stealLine = (before: ReturnType<typeof machineTimes>) =>
  `CPU time the host took from this machine during the run (steal): ${fmt(100 * stealShare(before, machineTimes()), 1)} %`

const program = Effect.gen(function*() {
  const store = process.env.DATABASE_URL === undefined ? "PGlite" : "PostgreSQL"
  const times = machineTimes()
  if (ONLY_LIFECYCLE) {
    const b = yield* Effect.scoped(partB)
    return yield* Effect.sync(() => console.log([`Signer lifecycle (${store})`, "", ...lifecycleLines(b), "", stealLine(times)].join("\n")))
  }
  const a = yield* partA
  if (a._tag === "Only402") {
    return yield* Effect.sync(() =>
      console.log([
        `402 minting (${store}; ${SECONDS}s per load run, median of 3 rounds run side by side, 32 connections, loopback)`,
        "",
        "| load | req/s | p50 ms | p99 ms | ratio to peer |",
        "|---|---|---|---|---|",
        line("402 minting, @x402/express peer", a.peerChallenges),
        line("402 minting, ours", a.challenges, a.peerChallenges),
        "",
        stealLine(times)
      ].join("\n"))
    )
  }
  const b = yield* Effect.scoped(partB)
  const table = [
    `Gateway benchmark (${store}; ${SECONDS}s per load run, median of 3 rounds run side by side, 32 connections, loopback)`,
    "",
    "| load | req/s | p50 ms | p99 ms | ratio to baseline |",
    "|---|---|---|---|---|",
    line("baseline: node:http, same JSON from memory", a.baseline),
    line("GET /v1/services/{id} (1,000 live)", a.getById, a.baseline),
    line("GET /v1/services?q=… (1,000 live)", a.search, a.baseline),
    line("402 challenge minting", a.challenges, a.baseline),
    line("402 minting, @x402/express peer (same offer)", a.peerChallenges, a.baseline),
    "",
    `402 minting, ours to the @x402/express peer: ${fmt(a.challengesToPeer, 2)}× (goal ≥ 1.0)`,
    "",
    `start-up to first 200 on /health, fresh store: ${fmt(a.startupMs, 0)} ms (runs: ${a.startups.map((s) => fmt(s, 0)).join(", ")}; goal < 1500)`,
    ...(a.restarts.length === 0 ? [] : [
      `start-up to first 200 on /health, restart on a data dir (npm start after its first run): ${fmt(a.restartMs, 0)} ms (runs: ${
        a.restarts.map((s) => fmt(s, 0)).join(", ")
      })`
    ]),
    `resident memory: ${fmt(a.rssIdle, 0)} MiB idle, ${fmt(a.rssAfter, 0)} MiB after the loads`,
    `console first load (/): ${fmt(a.page.transferredBytes / 1024, 0)} KiB transferred in ${a.page.requests} requests (goal < 400 KB), time to interactive ${
      fmt(a.page.timeToInteractiveMs, 0)
    } ms (goal < 1000), DOMContentLoaded ${fmt(a.page.domContentLoadedMs, 0)} ms`,
    "",
    ...lifecycleLines(b),
    "",
    `paid call end to end (challenge, pay, finality, verify, forward) vs calling the upstream directly:`,
    `  direct p50 ${fmt(b.paidCall.direct.p50)} ms, p99 ${fmt(b.paidCall.direct.p99)} ms; paid p50 ${fmt(b.paidCall.paid.p50)} ms, p99 ${fmt(b.paidCall.paid.p99)} ms; added p50 ${fmt(b.paidCall.addedP50)} ms, p99 ${fmt(b.paidCall.addedP99)} ms`,
    "",
    stealLine(times)
  ].join("\n")
  yield* Effect.sync(() => {
    console.log(table)
    mkdirSync("bench", { recursive: true })
    writeFileSync("bench/results.json", `${JSON.stringify({ store, seconds: SECONDS, partA: a, partB: b }, null, 2)}\n`)
    writeFileSync("bench/results.svg", barChart(`Throughput (${store}, req/s)`, [
      { label: "baseline node:http", value: a.baseline.requestsPerSecond },
      { label: "GET /v1/services/{id}", value: a.getById.requestsPerSecond },
      { label: "GET /v1/services?q=", value: a.search.requestsPerSecond },
      { label: "402 challenges", value: a.challenges.requestsPerSecond },
      { label: "402 challenges, @x402/express peer", value: a.peerChallenges.requestsPerSecond }
    ]))
  })
})

program.pipe(Effect.provide(FetchLayer), Effect.scoped, Effect.runPromise).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
