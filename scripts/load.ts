/**
 * `npm run load`: mixed traffic for LOAD_SECONDS (60) at LOAD_LANES (64)
 * concurrent clients — catalog reads, signer creates and finalizes,
 * pause/resume, paid calls — against the gateway on PostgreSQL (DATABASE_URL,
 * or postgres://postgres@127.0.0.1:5432/test, in a fresh schema dropped at the
 * end; PGlite with LOAD_STORE=pglite), then a consistency check of the store
 * against LocalLedger. Prints a summary table; exits non-zero on any 5xx,
 * failed step or inconsistency.
 */
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Console, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { localConfig } from "./LocalGateway.ts"
import { localUpstream } from "./LocalUpstream.ts"
import { checkConsistency, type Problem } from "./load/Consistency.ts"
import { amount, isRequest, KINDS, runLane, SUI } from "./load/Lane.ts"
import { makeStats } from "./load/Stats.ts"
import { loadGateway, loadStore } from "./load/Store.ts"

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60)
const LANES = Number(process.env.LOAD_LANES ?? 64)
const PRICE = 10n
/** Each lifecycle step waits for a checkpoint; a short interval keeps the flows, not the ledger, the bound. */
const CHECKPOINT_MS = 20
/** Every lane signs in and pays from loopback, one client address: per-client limits would measure themselves, not the flows. */
const LOOPBACK_CROWD = { signInPerMinute: 1_000_000, signInChallengesPerMinute: 1_000_000, paymentChallengesPerMinute: 1_000_000_000, paymentFailuresPerMinute: 1_000_000 }
/** How many problems of each sort the output lists in full. */
const SHOWN = 20

const program = (storeDescription: string, upstream: { readonly url: string }) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const baseUrl = HttpServer.formatAddress(server.address)
    const ledger = yield* LocalLedger
    // Owners and agents are wallets on the gateway's `/sui`, as they would be on a full node.
    const sui = new SuiGrpcClient({ network: "localnet", baseUrl: `${baseUrl}/sui` })
    const client = yield* makeApiClient(baseUrl)
    yield* Console.log(`load: ${SECONDS} s, ${LANES} lanes, store: ${storeDescription}`)

    const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
    const { service } = yield* client.sellers.register({
      payload: { name: "load", description: "load target", method: "GET", path: "/x", price: amount(PRICE), asset: SUI, decimals: 9, payTo, upstreamUrl: upstream.url }
    }).pipe(asSeller)
    const entry = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service

    const stats = makeStats(KINDS)
    const started = Date.now()
    const deadline = started + SECONDS * 1000
    const lanes = yield* Effect.forEach(
      Array.from({ length: LANES }, (_, i) => i),
      (i) => runLane({ client, baseUrl, sui, stats, service: { id: entry.id, resourceUrl: entry.resourceUrl }, deadline }, i),
      { concurrency: "unbounded" }
    )
    // Lanes finish the flow under way after the deadline, so the run lasts until the last one does.
    const elapsed = (Date.now() - started) / 1000

    const { problems, checked } = yield* checkConsistency({ client, ledger, sui, lanes, service: { id: entry.id, price: PRICE, payTo } })
    const totals = stats.totals(isRequest)
    const unexplained = problems.filter((p) => p.explainedBy === undefined)
    const explained = problems.filter((p) => p.explainedBy !== undefined)
    const show = (list: ReadonlyArray<Problem>) =>
      list.slice(0, SHOWN).map((p) => `    ${p.subject}: ${p.detail}${p.explainedBy === undefined ? "" : ` (after ${p.explainedBy})`}`)

    const lines = [
      `ran ${elapsed.toFixed(1)} s (lanes finish their last flow after ${SECONDS} s)`,
      ...stats.table(elapsed).map((line) => `  ${line}`),
      `  requests to the gateway: ${totals.requests} (${(totals.requests / elapsed).toFixed(0)}/s; a paid call is 2+ requests and a sign-in 2, counted once)`,
      `  5xx: ${totals.fiveHundreds}; failed steps: ${totals.failed}`,
      ...stats.failureLines().map((line) => `    ${line}`),
      `consistency: ${checked.signers} signers stored (${checked.unacknowledgedCommitted} from creates whose answer failed), ${checked.grants} grants, ` +
      `${checked.transitions} lifecycle records, ${checked.paidCalls} paid calls acknowledged, ${checked.paymentRows} payment rows, ` +
      `${checked.paymentEvents} PaymentMade on chain`,
      `  inconsistencies: ${unexplained.length}`,
      ...show(unexplained),
      `  disagreements left by failed steps: ${explained.length}`,
      ...show(explained)
    ]
    yield* Console.log(lines.join("\n"))
    return totals.fiveHundreds === 0 && totals.failed === 0 && problems.length === 0
  })

const main = Effect.gen(function*() {
  const store = yield* loadStore(process.env)
  // The seller's API listens first, so the gateway can name it in its upstream allow-list.
  const upstream = yield* localUpstream()
  return yield* program(store.description, upstream).pipe(
    Effect.provide(Layer.merge(loadGateway({ ...localConfig, ...LOOPBACK_CROWD, ledgerCheckpointMs: CHECKPOINT_MS, upstreamAllowHosts: [new URL(upstream.url).host] }, store), FetchLayer))
  )
})

main.pipe(Effect.scoped, Effect.runPromise).then((ok) => process.exit(ok ? 0 : 1), (error) => {
  console.error(error)
  process.exit(1)
})
