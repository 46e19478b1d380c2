/**
 * `npm run load`: mixed traffic for LOAD_SECONDS (60) at LOAD_LANES (64)
 * concurrent clients — catalog reads, signer creates and finalizes,
 * pause/resume, paid calls — against the gateway on PostgreSQL when
 * DATABASE_URL is set (PGlite otherwise), then a consistency check of the
 * store against LocalLedger. Exits non-zero on any 5xx or inconsistency.
 */
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { localLedgerAccess } from "@gateway/chain/local/LocalLedgerAccess"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { isApiError } from "@gateway/domain/Errors"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { HttpServer } from "effect/http"
import { localConfig, localGateway } from "./LocalGateway.ts"
import { localUpstream } from "./LocalUpstream.ts"

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60)
const LANES = Number(process.env.LOAD_LANES ?? 64)
const SUI = CoinType.make(SUI_COIN_TYPE)
const amount = (n: bigint) => PositiveAtomicAmount.make(n.toString())

const program = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const baseUrl = HttpServer.formatAddress(server.address)
  const ledger = yield* LocalLedger
  const access = yield* localLedgerAccess
  const client = yield* makeApiClient(baseUrl)
  const counts = { requests: 0, fiveHundreds: 0, refusals: 0, creates: 0, finalizes: 0, pauses: 0, resumes: 0, paid: 0, reads: 0 }
  const classify = (error: unknown) => {
    if (isApiError(error) && (error.code === "UNAVAILABLE" || error.code === "INTERNAL")) counts.fiveHundreds += 1
    else counts.refusals += 1
  }
  const call = <A, E>(self: Effect.Effect<A, E>) =>
    Effect.tap(Effect.tapError(self, (e) => Effect.sync(() => classify(e))), () => Effect.sync(() => (counts.requests += 1)))

  const upstream = yield* localUpstream()
  const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
  const { service } = yield* client.sellers.register({
    payload: { name: "load", description: "load target", method: "GET", path: "/x", price: amount(10n), asset: SUI, decimals: 9, payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()), upstreamUrl: upstream.url }
  }).pipe(asSeller)
  const entry = (yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)).service

  const signers: Array<{ id: DelegatedSignerId; as: ReturnType<typeof withOwner> }> = []
  const lane = (index: number, deadline: number) =>
    Effect.gen(function*() {
      const owner = new Ed25519Keypair()
      const agentKey = new Ed25519Keypair()
      yield* ledger.mint(owner.toSuiAddress(), SUI_COIN_TYPE, 1_000_000_000_000n)
      yield* ledger.mint(agentKey.toSuiAddress(), SUI_COIN_TYPE, 1_000_000_000_000n)
      const as = withOwner((yield* signIn(client, owner)).authorization)
      const fund = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: amount(1_000_000_000n) } }).pipe(as)
      yield* executeKind(fund.txKindBytes, owner, access)
      yield* Effect.sleep("100 millis")
      let i = 0
      let live: { id: DelegatedSignerId; paused: boolean; agent: ReturnType<typeof makeAgent> } | undefined
      while (Date.now() < deadline) {
        i += 1
        const roll = (index + i) % 8
        if (roll === 0 || live === undefined) {
          const created = yield* call(client.delegatedSigners.create({
            headers: { "idempotency-key": `load-${index}-${i}` },
            payload: { agentAddress: SuiAddress.make(agentKey.toSuiAddress()), assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(1_000_000n), maxPerPaymentAtomic: amount(100n) }] }
          }).pipe(as))
          counts.creates += 1
          signers.push({ id: created.delegatedSignerId, as })
          const grant = created.grants[0]
          if (grant === undefined) continue
          const digest = (yield* executeKind(grant.txKindBytes, owner, access)).digest
          yield* Effect.sleep("60 millis")
          yield* call(client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(as))
          counts.finalizes += 1
          const manifest = yield* call(client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(as))
          live = { id: created.delegatedSignerId, paused: false, agent: makeAgent({ manifest, signer: agentKey, ledger: access }) }
        } else if (roll === 1 || roll === 2) {
          if (roll === 1) yield* call(client.services.get({ params: { id: entry.id } }))
          else yield* call(client.services.list({ query: { q: "load" } }))
          counts.reads += 1
        } else if (roll === 3 || roll === 6) {
          const current = live
          const prepared = yield* call(current.paused
            ? client.delegatedSigners.prepareResume({ params: { id: current.id  } }).pipe(as)
            : client.delegatedSigners.preparePause({ params: { id: current.id  } }).pipe(as))
          for (const kind of prepared.grants) {
            const digest = (yield* executeKind(kind.txKindBytes, owner, access)).digest
            yield* Effect.sleep("60 millis")
            yield* call((current.paused ? client.delegatedSigners.finalizeResume : client.delegatedSigners.finalizePause)({
              params: { id: current.id , grantId: kind.grantId },
              payload: { digest }
            }).pipe(as))
          }
          if (current.paused) counts.resumes += 1
          else counts.pauses += 1
          current.paused = !current.paused
        } else if (!live.paused) {
          const paid = yield* live.agent.fetchPaid(entry.resourceUrl)
          counts.requests += 1
          if (paid.response.status >= 500) counts.fiveHundreds += 1
          else counts.paid += 1
        }
      }
    }).pipe(Effect.catch((e) => Effect.sync(() => classify(e))))

  const started = Date.now()
  yield* Effect.forEach(Array.from({ length: LANES }, (_, i) => i), (i) => lane(i, started + SECONDS * 1000), { concurrency: "unbounded", discard: true })
  const elapsed = (Date.now() - started) / 1000

  // Consistency: every create the API acknowledged is there once, and every bound grant agrees with the chain.
  let inconsistent = 0
  const ids = new Set(signers.map((s) => s.id))
  if (ids.size !== signers.length) inconsistent += signers.length - ids.size
  for (const signer of signers) {
    const view = yield* Effect.option(client.delegatedSigners.get({ params: { id: signer.id  } }).pipe(signer.as))
    if (view._tag === "None") {
      inconsistent += 1
      continue
    }
    for (const grant of view.value.delegatedSigner.grants) {
      if (grant.grantObjectId === null) continue
      const object = yield* ledger.getObject(grant.grantObjectId)
      const data = object._tag === "Some" ? object.value.data : undefined
      const paused = data?._tag === "Grant" && data.paused
      const revoked = data?._tag === "Grant" && data.revoked
      const agrees = grant.status === "active" ? !paused && !revoked
        : grant.status === "paused" ? paused
        : grant.status === "pausing" ? true
        : grant.status === "revoked" ? revoked
        : true
      if (!agrees) inconsistent += 1
    }
  }
  const store = process.env.DATABASE_URL === undefined ? "PGlite" : "PostgreSQL"
  console.log(`load: ${SECONDS}s, ${LANES} lanes, ${store}`)
  console.log(`  ${counts.requests} requests (${(counts.requests / elapsed).toFixed(0)}/s): ${counts.reads} catalog reads, ${counts.creates} creates, ${counts.finalizes} finalizes, ${counts.pauses} pauses, ${counts.resumes} resumes, ${counts.paid} paid calls`)
  console.log(`  5xx: ${counts.fiveHundreds}; refused (4xx): ${counts.refusals}; inconsistencies: ${inconsistent} over ${signers.length} signers`)
  return counts.fiveHundreds === 0 && inconsistent === 0
})

program.pipe(
  Effect.scoped,
  Effect.provide([localGateway({ ...localConfig, ledgerCheckpointMs: 20 }), FetchLayer]),
  Effect.runPromise
).then((ok) => process.exit(ok ? 0 : 1), (error) => {
  console.error(error)
  process.exit(1)
})
