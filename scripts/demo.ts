/**
 * `npm run demo`: the whole story in one process, on the embedded defaults
 * (in-memory PGlite, LocalLedger checkpointing every 50 ms). An owner signs
 * in, a seller lists a paid API, the owner grants an agent a budget, the agent
 * discovers the service and pays for calls, and the owner pauses, resumes and
 * revokes. Every step goes through the gateway's HTTP API, and every wallet
 * (owner and agent) reaches the ledger as it would a Sui full node: a
 * `SuiGrpcClient` on the gateway's `/sui`, SUI from its faucet.
 */
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Console, Effect } from "effect"
import { HttpServer } from "effect/http"
import { NodeRuntime } from "@effect/platform-node"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { signAndExecuteKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { localConfig, localGateway } from "./LocalGateway.ts"
import { localUpstream } from "./LocalUpstream.ts"

const SUI = CoinType.make(SUI_COIN_TYPE)

const step = (text: string) => Console.log(`\n▸ ${text}`)

/** The whole story, against a gateway whose only allowed loopback upstream is this seller's API. */
const story = (seller: { readonly url: string }) => Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const baseUrl = HttpServer.formatAddress(server.address)
  const sui = new SuiGrpcClient({ network: "localnet", baseUrl: `${baseUrl}/sui` })
  const client = yield* makeApiClient(baseUrl)
  const balanceOf = (address: string) => Effect.map(Effect.promise(() => sui.core.getBalance({ owner: address })), (r) => r.balance.balance)
  const faucet = (address: string) => Effect.promise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: address }))

  yield* Console.log(`Gateway on ${baseUrl} (PGlite in memory, LocalLedger behind Sui's gRPC API at ${baseUrl}/sui)`)
  const owner = new Ed25519Keypair()
  const agentKey = new Ed25519Keypair()
  const payee = SuiAddress.make(new Ed25519Keypair().toSuiAddress())

  yield* step("The owner gets test SUI from the local faucet and signs in with their wallet")
  yield* faucet(owner.toSuiAddress())
  yield* faucet(agentKey.toSuiAddress())
  const session = yield* signIn(client, owner)
  const asOwner = withOwner(session.authorization)
  yield* Console.log(`  signed in as ${session.address}`)

  yield* step("The owner funds a spend account (Pool<SUI>) with 1,000,000 MIST")
  const fund = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("1000000") } }).pipe(asOwner)
  const funded = yield* signAndExecuteKind(fund.txKindBytes, owner, sui)
  yield* Console.log(`  executed ${funded}, gas priced by the SDK's dry run`)
  yield* Effect.sleep("150 millis")
  const pools = yield* client.spendAccounts.list().pipe(asOwner)
  yield* Console.log(`  pool ${pools.spendAccounts[0]?.pool} holds ${pools.spendAccounts[0]?.balance}`)

  yield* step("A seller registers a paid weather API and activates it")
  const sellerSession = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
  const { service } = yield* client.sellers.register({
    payload: {
      name: "Weather Forecast",
      description: "tomorrow's forecast for one city",
      method: "GET",
      path: "/forecast",
      price: PositiveAtomicAmount.make("25000"),
      asset: SUI,
      decimals: 9,
      payTo: payee,
      upstreamUrl: seller.url
    }
  }).pipe(sellerSession)
  yield* client.sellers.activate({ params: { id: service.id } }).pipe(sellerSession)
  yield* Console.log(`  ${service.id} is live at 25000 MIST per call`)

  yield* step("The owner grants the agent a budget of 200000 MIST, at most 30000 per payment and 125000 per day, and signs it")
  const created = yield* client.delegatedSigners.create({
    headers: { "idempotency-key": "demo-agent" },
    payload: {
      agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
      name: "weather agent",
      assetScopes: [{
        asset: SUI,
        totalBudgetAtomic: PositiveAtomicAmount.make("200000"),
        maxPerPaymentAtomic: PositiveAtomicAmount.make("30000"),
        // A daily window the chain enforces besides the total: the agent can never spend the whole budget in one day.
        window: { limitAtomic: PositiveAtomicAmount.make("125000"), period: "day" }
      }]
    }
  }).pipe(asOwner)
  const id = created.delegatedSignerId
  const finalizeAll = <A>(
    kinds: ReadonlyArray<{ grantId: typeof created.grants[number]["grantId"]; txKindBytes: string }>,
    finalize: (grantId: typeof created.grants[number]["grantId"], digest: string) => Effect.Effect<A, unknown>
  ) =>
    Effect.forEach(kinds, (kind) =>
      Effect.gen(function*() {
        const digest = yield* signAndExecuteKind(kind.txKindBytes, owner, sui)
        yield* Effect.sleep("150 millis")
        return yield* finalize(kind.grantId, digest)
      }))
  const finalized = yield* finalizeAll(created.grants, (grantId, digest) =>
    client.delegatedSigners.finalizeCreate({ params: { id, grantId }, payload: { digest } }).pipe(asOwner))
  yield* Console.log(`  signer ${id} is ${finalized[0]?.signerStatus}`)

  yield* step("The agent discovers the service and pays for three calls with its own key")
  const found = yield* client.services.list({ query: { q: "weather" } })
  const entry = found.services[0]
  if (entry === undefined) return yield* Effect.die("the service was not found")
  const manifest = yield* client.delegatedSigners.manifest({ params: { id } }).pipe(asOwner)
  const agent = makeAgent({ manifest, signer: agentKey, client: sui })
  const call = (label: string) =>
    agent.fetchPaid(entry.resourceUrl).pipe(
      Effect.flatMap((paid) =>
        Effect.promise(() => paid.response.text()).pipe(
          Effect.flatMap((body) => Console.log(`  ${label}: ${paid.response.status} ${body} (paid in ${paid.digest})`))
        )),
      Effect.catchTag("PaymentRefused", (e) => Console.log(`  ${label}: refused — ${e.reason}`))
    )
  for (const n of [1, 2, 3]) yield* call(`call ${n}`)
  yield* Console.log(`  the seller has received ${yield* balanceOf(payee)} MIST`)

  yield* step("The owner pauses the signer; a fourth call is refused by the chain")
  const pause = yield* client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
  yield* finalizeAll(pause.grants, (grantId, digest) => client.delegatedSigners.finalizePause({ params: { id, grantId }, payload: { digest } }).pipe(asOwner))
  yield* call("call 4")

  yield* step("The owner resumes; the call succeeds under the same caps")
  const resume = yield* client.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner)
  yield* finalizeAll(resume.grants, (grantId, digest) => client.delegatedSigners.finalizeResume({ params: { id, grantId }, payload: { digest } }).pipe(asOwner))
  yield* call("call 5")

  yield* step("The owner revokes; the agent can never pay again")
  const revoke = yield* client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
  yield* finalizeAll(revoke.grants, (grantId, digest) => client.delegatedSigners.finalizeRevoke({ params: { id, grantId }, payload: { digest } }).pipe(asOwner))
  yield* call("call 6")

  const final = yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)
  const grant = final.delegatedSigner.grants[0]
  const pool = (yield* client.spendAccounts.list().pipe(asOwner)).spendAccounts[0]
  yield* step("Balances")
  yield* Console.log(`  signer status: ${final.delegatedSigner.status}`)
  yield* Console.log(`  spent today: ${grant?.spentThisWindowAtomic} of ${grant?.window?.limitAtomic} MIST per day; the window resets at ${grant?.windowResetsAt}`)
  yield* Console.log(`  pool balance: ${pool?.balance} MIST (of 1000000 deposited)`)
  yield* Console.log(`  seller received: ${yield* balanceOf(payee)} MIST`)
})

Effect.gen(function*() {
  // The seller's API listens first, so the gateway can name it in its upstream allow-list (UPSTREAM_ALLOW_HOSTS).
  const seller = yield* localUpstream((call) => ({ forecast: "sunny", call }))
  yield* story(seller).pipe(Effect.provide([localGateway({ ...localConfig, upstreamAllowHosts: [new URL(seller.url).host] }), FetchLayer]))
}).pipe(Effect.scoped, NodeRuntime.runMain)
