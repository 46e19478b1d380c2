import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Layer, Redacted } from "effect"
import { FetchLayer, type GatewayClient, signIn, withOwner } from "@gateway/client"
import type { AppConfigShape } from "../../src/Config.ts"
import { layerTestServer, TestStore } from "./TestServer.ts"
import { Upstream } from "./Upstream.ts"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { TestLedger } from "./TestLedger.ts"
import type { PolicyId } from "@gateway/domain/Ids"
import type { SpendingWindow } from "@gateway/domain/SpendingWindow"

export const SUI = CoinType.make("0x2::sui::SUI")
export const amount = (n: bigint) => PositiveAtomicAmount.make(n.toString())

/** An owner signed in, with a funded SUI spend account on chain. */
export const fundedOwner = (client: GatewayClient, owner: Signer = new Ed25519Keypair()) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    yield* ledger.fundPool(owner, SUI, 1_000_000n)
    const session = yield* signIn(client, owner)
    return { owner, session, asOwner: withOwner(session.authorization) }
  })

/** A create request for one SUI scope, for the given agent. */
export const createRequest = (agent: string, key: string, budget = 1000n, perPayment = 100n) => ({
  headers: { "idempotency-key": key },
  payload: {
    agentAddress: SuiAddress.make(agent),
    name: "agent",
    assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(budget), maxPerPaymentAtomic: amount(perPayment) }]
  }
})

/** A seller signed in, with one live service (GET unless told) at `price` forwarding to `upstreamUrl`. */
export const liveService = (
  client: GatewayClient,
  input: {
    readonly price: bigint
    readonly upstreamUrl: string
    readonly upstreamCredential?: string
    readonly method?: "GET" | "POST"
    /** The seller's session; a fresh seller's when omitted. */
    readonly seller?: ReturnType<typeof withOwner>
    /** Who is paid; a fresh address when omitted. */
    readonly payTo?: string
  }
) =>
  Effect.gen(function*() {
    const seller = input.seller ?? withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const payTo = SuiAddress.make(input.payTo ?? new Ed25519Keypair().toSuiAddress())
    const { service } = yield* client.sellers.register({
      payload: {
        name: "Answers",
        description: "the answer",
        method: input.method ?? "GET",
        path: "/answer",
        price: amount(input.price),
        asset: SUI,
        decimals: 9,
        payTo,
        upstreamUrl: input.upstreamUrl,
        ...(input.upstreamCredential === undefined ? {} : { upstreamCredential: Redacted.make(input.upstreamCredential) })
      }
    }).pipe(seller)
    return { entry: (yield* client.sellers.activate({ params: { id: service.id } }).pipe(seller)).service, payTo }
  })

/**
 * A fresh agent with gas and, from `owner`, a finalized grant on SUI with
 * these caps (and optional policies and expiry), plus its connection manifest.
 */
export const grantedAgent = (
  client: GatewayClient,
  owner: Signer,
  asOwner: ReturnType<typeof withOwner>,
  input: {
    readonly key: string
    readonly budget: bigint
    readonly perPayment: bigint
    readonly policyIds?: ReadonlyArray<PolicyId>
    readonly expiresAt?: number
    readonly window?: SpendingWindow
    /** False for an agent that owns no SUI and pays only through the gateway's gas station. */
    readonly gas?: boolean
  }
) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const agentKey = new Ed25519Keypair()
    if (input.gas !== false) yield* ledger.gas(agentKey.toSuiAddress())
    const created = yield* client.delegatedSigners.create({
      headers: { "idempotency-key": input.key },
      payload: {
        agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
        policyIds: input.policyIds ?? [],
        assetScopes: [{
          asset: SUI,
          totalBudgetAtomic: amount(input.budget),
          maxPerPaymentAtomic: amount(input.perPayment),
          ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
          ...(input.window === undefined ? {} : { window: input.window })
        }]
      }
    }).pipe(asOwner)
    const grant = created.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant was prepared")
    const digest = yield* ledger.execute(grant.txKindBytes, owner)
    yield* ledger.checkpoint
    yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
      .pipe(asOwner)
    const manifest = yield* client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
    return { agentKey, manifest, signerId: created.delegatedSignerId }
  })

/**
 * A test server whose ledger checkpoints by itself, the test's ledger handle, a recording seller upstream and fetch.
 * The upstream's `host:port` is the server's only allow-listed upstream, so every other loopback target is refused as in production.
 */
export const paidCallEnv = (overrides: Partial<AppConfigShape> = {}, logging?: Layer.Layer<never>) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const upstream = yield* Upstream
      const server = layerTestServer({ ledgerCheckpointMs: 20, upstreamAllowHosts: [new URL(upstream.url).host], ...overrides }, TestStore, logging)
      return Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(server)), FetchLayer)
    })
  ).pipe(Layer.provideMerge(Upstream.layer))
