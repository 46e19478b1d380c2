import { NodeHttpServer } from "@effect/platform-node"
import { ByteSize, Duration, Effect, identity, Layer } from "effect"
import { HttpIncomingMessage, HttpMiddleware, HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql"
import * as SuiChain from "@gateway/chain/sui/SuiChain"
import { AppConfig } from "./Config.ts"
import { answerChallenge } from "./http/AnswerChallenge.ts"
import { createGatewayServer } from "./http/GatewayNodeServer.ts"
import { HttpApp } from "./http/HttpApp.ts"
import { McpRoutes } from "./discovery/mcp/McpRoutes.ts"
import { CatalogRepo } from "./catalog/CatalogRepo.ts"
import { GatewayKeyRepo } from "./storage/GatewayKeyRepo.ts"
import { PaymentRepo } from "./paidCalls/PaymentRepo.ts"
import { BatchedLimits } from "./limits/BatchedLimits.ts"
import { RateLimits } from "./limits/RateLimits.ts"
import { PolicyRepo } from "./owners/PolicyRepo.ts"
import { SignerRepo } from "./signers/SignerRepo.ts"
import { SessionRepo } from "./owners/SessionRepo.ts"
import { AgentDocuments } from "./discovery/AgentDocuments.ts"
import { Catalog } from "./catalog/Catalog.ts"
import { GrantVerification } from "./signers/GrantVerification.ts"
import { OwnerSessions } from "./owners/OwnerSessions.ts"
import { PaidCalls } from "./paidCalls/PaidCalls.ts"
import { PaymentHistory } from "./paidCalls/PaymentHistory.ts"
import { PaymentSessions } from "./paidCalls/sessions/PaymentSessions.ts"
import { Policies } from "./owners/Policies.ts"
import { PublicUrl } from "./httpShared/PublicUrl.ts"
import { ServiceReadCache } from "./catalog/ServiceReadCache.ts"
import { Signers } from "./signers/Signers.ts"
import { SpendAccounts } from "./owners/SpendAccounts.ts"
import { Sponsorship } from "./sponsorship/Sponsorship.ts"
import { UpstreamForwarder } from "./upstream/UpstreamForwarder.ts"
import { withRequestId } from "./observability/Logging.ts"
import { NoteMatchedRoute, recordHttpMetrics } from "./observability/HttpMetrics.ts"
import { layerMigrations } from "./storage/Migrations.ts"
import { SuiNode } from "./sui/SuiNode.ts"

/** Request bodies above this are refused with INVALID before any handler runs. */
export const MAX_BODY = ByteSize.kibibytes(64)

const Base = Layer.mergeAll(
  SessionRepo.layer,
  PolicyRepo.layer,
  SignerRepo.layer,
  CatalogRepo.layer,
  PaymentRepo.layer,
  GatewayKeyRepo.layer,
  PublicUrl.layer,
  UpstreamForwarder.layer,
  RateLimits.layer,
  BatchedLimits.layer
)

const Core = Layer.mergeAll(OwnerSessions.layer, Policies.layer, GrantVerification.layer, Catalog.layer).pipe(Layer.provideMerge(Base))

/** The sponsor pays gas for owners' own calls and co-signs sign-first payments, which paid calls settle. */
const Sponsoring = Sponsorship.layer.pipe(Layer.provideMerge(Core))

const Services = Layer.mergeAll(Signers.layer, SpendAccounts.layer, AgentDocuments.layer, PaidCalls.layer).pipe(Layer.provideMerge(Sponsoring))

/** Services built on the others: the payment history reads signers and the catalog to check ownership. */
const Features = Layer.mergeAll(PaymentHistory.layer, PaymentSessions.layer).pipe(Layer.provideMerge(Services))

/** The store with every migration applied: what the server and the ledger journal read and write. */
export const layerStore = <E, R>(store: Layer.Layer<SqlClient.SqlClient, E, R>) => layerMigrations.pipe(Layer.provideMerge(store))

const serve = <R>(chainRoutes: Layer.Layer<never, never, R>) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const config = yield* AppConfig
      const reads = yield* ServiceReadCache
      const server = createGatewayServer(reads, config)
      // Behind trusted proxies the client is the first untrusted address of X-Forwarded-For; from anyone else the header is ignored.
      const clientAddress = config.trustedProxies.length === 0 ? identity : HttpMiddleware.xForwardedHeaders({ trustedProxies: config.trustedProxies })
      // Every route notes its pattern, for the request metrics (by route, not raw path: bounded series).
      const routes = Layer.mergeAll(HttpApp, McpRoutes, chainRoutes).pipe(Layer.provide(NoteMatchedRoute))
      const served = HttpRouter.serve(routes, {
        disableLogger: true,
        middleware: (app) => withRequestId(HttpMiddleware.logger(recordHttpMetrics(clientAddress(app))))
      })
      // Paid calls without a credential the app has challenged before are answered by the Node server too.
      const challenges = Layer.effectDiscard(Effect.map(answerChallenge, (answer) => server.answerChallengesWith(answer)))
      return Layer.merge(served, challenges).pipe(
        Layer.provide(Features),
        Layer.provideMerge(NodeHttpServer.layer(() => server, {
          host: config.host,
          port: config.port,
          // SIGTERM: stop accepting, let requests in flight (a paid call's forward and record) finish within the grace.
          gracefulShutdownTimeout: Duration.millis(config.shutdownGraceMs)
        })),
        Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, MAX_BODY))
      )
    })
    // Provided once, here: the catalog (inside Services) fills and invalidates it, the Node server answers from it.
  ).pipe(Layer.provide(ServiceReadCache.layer))

/** The `Chain` the whole gateway reads, over the gateway's node. */
const layerChain = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const client = yield* SuiNode
    return SuiChain.layer({ client, network: config.network, pkg: config.spendAccountPackage, assets: config.supportedAssets })
  })
)

/**
 * The gateway over whatever node is given (`SuiNode`): the HTTP app on a Node
 * server at the configured host and port, with `chainRoutes` beside it (local
 * mode serves its ledger's gRPC-web front and faucet there). The `Chain` is
 * exposed too, for tests that build kinds as the gateway does.
 */
export const layerGateway = <R>(chainRoutes: Layer.Layer<never, never, R>) => serve(chainRoutes).pipe(Layer.provideMerge(layerChain))

/** The gateway on a Sui full node's gRPC API (`SUI_GRPC_URL`): a live network, or a local ledger run on its own. */
export const layerServerLive = (grpcUrl: string) => layerGateway(Layer.empty).pipe(Layer.provideMerge(SuiNode.layerRemote(grpcUrl)))
