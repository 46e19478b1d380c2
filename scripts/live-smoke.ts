/**
 * The whole product once against a real Sui network (`npm exec -- node scripts/live-smoke.ts`).
 * Needs SUI_GRPC_URL, SUI_NETWORK, SPEND_ACCOUNT_PACKAGE (original id),
 * SPEND_ACCOUNT_REGISTRY, optionally SPEND_ACCOUNT_PUBLISHED_AT, and two
 * funded Ed25519 keys, OWNER_KEY and AGENT_KEY (`suiprivkey1…`). With
 * GATEWAY_URL it drives that running gateway; without, it starts one in this
 * process (live mode, in-memory PGlite). UPSTREAM_URL names a public HTTPS
 * endpoint the paid call forwards to. It prints each step's digest, never a key.
 */
import type { Signer } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Config, Context, Effect, Layer, Option, Redacted, References, Schedule } from "effect"
import { HttpServer } from "effect/http"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { signAndExecuteKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { isApiError } from "@gateway/domain/Errors"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../packages/server/src/Config.ts"
import { layerServerLive, layerStore } from "../packages/server/src/Server.ts"
import * as Database from "../packages/server/src/storage/Database.ts"

const SUI = CoinType.make("0x2::sui::SUI")
const atomic = (n: bigint) => PositiveAtomicAmount.make(n.toString())

/** A key from its `suiprivkey1…` form; only the address is ever printed. */
const keyFrom = (name: string) =>
  Effect.map(Config.Redacted(name), (key): Signer => Ed25519Keypair.fromSecretKey(Redacted.value(key)))

const step = (what: string, digest: string) => Effect.sync(() => console.log(`${what.padEnd(22)} ${digest}`))

/** A finalize retried while the chain has not checkpointed the digest yet. */
const untilFinal = <A, E, R>(finalize: Effect.Effect<A, E, R>) =>
  finalize.pipe(Effect.retry({ while: (error) => isApiError(error) && error.code === "NOT_FINAL", schedule: Schedule.spaced("1 second"), times: 60 }))

/** Where the gateway under test answers. */
class GatewayUrl extends Context.Service<GatewayUrl, string>()("scripts/live-smoke/GatewayUrl") {}

/** This process's own gateway in live mode, on an ephemeral port; its URL. */
const inProcessGateway = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* AppConfig.fromEnv
    const grpcUrl = Option.getOrUndefined(config.suiGrpcUrl)
    if (grpcUrl === undefined) return yield* Effect.die("SUI_GRPC_URL is required")
    return Layer.effect(GatewayUrl, HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))).pipe(
      Layer.provideMerge(layerServerLive(grpcUrl)),
      Layer.provideMerge(layerStore(Database.layerPglite(Option.none()))),
      Layer.provide(AppConfig.layer({ ...config, port: 0 })),
      Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
    )
  })
)

const smoke = Effect.gen(function*() {
  const gatewayUrl = yield* GatewayUrl
  const network = yield* Config.String("SUI_NETWORK")
  const sui = new SuiGrpcClient({ network, baseUrl: yield* Config.String("SUI_GRPC_URL") })
  const owner = yield* keyFrom("OWNER_KEY")
  const agent = yield* keyFrom("AGENT_KEY")
  const upstreamUrl = yield* Config.String("UPSTREAM_URL")
  const execute = (txKindBytes: string, signer: Signer) => signAndExecuteKind(txKindBytes, signer, sui)
  console.log(`gateway ${gatewayUrl}, owner ${owner.toSuiAddress()}, agent ${agent.toSuiAddress()}`)

  const api = yield* makeApiClient(gatewayUrl)
  const asOwner = withOwner((yield* signIn(api, owner)).authorization)

  const fund = yield* api.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: atomic(10_000_000n) } }).pipe(asOwner)
  yield* step("fund spend account", yield* execute(fund.txKindBytes, owner))

  const created = yield* api.delegatedSigners.create({
    headers: { "idempotency-key": `live-smoke-${Date.now()}` },
    payload: {
      agentAddress: SuiAddress.make(agent.toSuiAddress()),
      name: "live smoke",
      assetScopes: [{ asset: SUI, totalBudgetAtomic: atomic(5_000_000n), maxPerPaymentAtomic: atomic(1_000_000n) }]
    }
  }).pipe(asOwner)
  const id = created.delegatedSignerId
  const grant = created.grants[0]
  if (grant === undefined) return yield* Effect.die("the gateway prepared no grant")
  const createDigest = yield* execute(grant.txKindBytes, owner)
  yield* step("create signer", createDigest)
  const params = { id, grantId: grant.grantId }
  const active = yield* untilFinal(api.delegatedSigners.finalizeCreate({ params, payload: { digest: createDigest } }).pipe(asOwner))
  console.log(`finalized              ${active.status} (grant ${active.grantObjectId})`)

  const { service } = yield* api.sellers.register({
    payload: {
      name: "Live smoke",
      description: "one paid call of the live smoke test",
      method: "GET",
      path: "/",
      price: atomic(1_000n),
      asset: SUI,
      decimals: 9,
      payTo: SuiAddress.make(owner.toSuiAddress()),
      upstreamUrl
    }
  }).pipe(asOwner)
  const entry = (yield* api.sellers.activate({ params: { id: service.id } }).pipe(asOwner)).service
  const manifest = yield* api.delegatedSigners.manifest({ params: { id } }).pipe(asOwner)
  const paid = yield* makeAgent({ manifest, signer: agent, client: sui }).fetchPaid(entry.resourceUrl)
  yield* step("paid call", `${paid.digest ?? "no payment"} (HTTP ${paid.response.status})`)

  const change = Effect.fnUntraced(function*(
    what: string,
    prepared: { readonly grants: ReadonlyArray<{ readonly txKindBytes: string }> },
    finalize: (digest: string) => Effect.Effect<{ readonly status: string }, unknown, never>
  ) {
    const kind = prepared.grants[0]
    if (kind === undefined) return yield* Effect.die(`the gateway prepared no ${what}`)
    const digest = yield* execute(kind.txKindBytes, owner)
    yield* step(what, digest)
    const done = yield* untilFinal(finalize(digest))
    console.log(`finalized              ${done.status}`)
  })
  yield* change("pause", yield* api.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner), (digest) =>
    api.delegatedSigners.finalizePause({ params, payload: { digest } }).pipe(asOwner))
  yield* change("resume", yield* api.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner), (digest) =>
    api.delegatedSigners.finalizeResume({ params, payload: { digest } }).pipe(asOwner))
  yield* change("revoke", yield* api.delegatedSigners.revoke({ params: { id } }).pipe(asOwner), (digest) =>
    api.delegatedSigners.finalizeRevoke({ params, payload: { digest } }).pipe(asOwner))
})

const gateway = Layer.unwrap(
  Effect.map(Config.option(Config.String("GATEWAY_URL")), (url) =>
    Option.match(url, {
      onSome: (origin) => Layer.succeed(GatewayUrl, origin),
      onNone: () => inProcessGateway
    }))
)

smoke.pipe(
  Effect.provide(Layer.mergeAll(gateway, FetchLayer)),
  Effect.scoped,
  Effect.runPromise
).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
})
