import { NodeHttpServer } from "@effect/platform-node"
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpMiddleware, HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql"
import { Chain } from "@gateway/chain/Chain"
import { JsonRpcFront } from "@gateway/chain/local/JsonRpcFront"
import * as SuiChain from "@gateway/chain/sui/SuiChain"
import { AppConfig } from "./Config.ts"
import { createGatewayServer } from "./http/GatewayNodeServer.ts"
import { HttpApp } from "./http/HttpApp.ts"
import { CatalogRepo } from "./repositories/CatalogRepo.ts"
import { GatewayKeyRepo } from "./repositories/GatewayKeyRepo.ts"
import { PaymentRepo } from "./repositories/PaymentRepo.ts"
import { PolicyRepo } from "./repositories/PolicyRepo.ts"
import { SignerRepo } from "./repositories/SignerRepo.ts"
import { SessionRepo } from "./repositories/SessionRepo.ts"
import { AgentDocuments } from "./services/AgentDocuments.ts"
import { Catalog } from "./services/Catalog.ts"
import { GrantVerification } from "./services/GrantVerification.ts"
import { OwnerSessions } from "./services/OwnerSessions.ts"
import { PaidCalls } from "./services/PaidCalls.ts"
import { Policies } from "./services/Policies.ts"
import { PublicUrl } from "./services/PublicUrl.ts"
import { ServiceReadCache } from "./services/ServiceReadCache.ts"
import { Signers } from "./services/Signers.ts"
import { SpendAccounts } from "./services/SpendAccounts.ts"
import { withRequestId } from "./observability/Logging.ts"
import { layerMigrations } from "./storage/Migrations.ts"

/** Request bodies above this are refused with INVALID before any handler runs. */
export const MAX_BODY = ByteSize.kibibytes(64)

const Base = Layer.mergeAll(SessionRepo.layer, PolicyRepo.layer, SignerRepo.layer, CatalogRepo.layer, PaymentRepo.layer, GatewayKeyRepo.layer, PublicUrl.layer)

const Core = Layer.mergeAll(OwnerSessions.layer, Policies.layer, GrantVerification.layer, Catalog.layer).pipe(Layer.provideMerge(Base))

const Services = Layer.mergeAll(Signers.layer, SpendAccounts.layer, AgentDocuments.layer, PaidCalls.layer).pipe(Layer.provideMerge(Core))

/** The store with every migration applied: what the server and the ledger journal read and write. */
export const layerStore = <E, R>(store: Layer.Layer<SqlClient.SqlClient, E, R>) => layerMigrations.pipe(Layer.provideMerge(store))

const serve = <R>(chainRoutes: Layer.Layer<never, never, R>) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const config = yield* AppConfig
      const reads = yield* ServiceReadCache
      return HttpRouter.serve(Layer.mergeAll(HttpApp, chainRoutes), { disableLogger: true, middleware: (app) => withRequestId(HttpMiddleware.logger(app)) }).pipe(
        Layer.provide(Services),
        Layer.provideMerge(NodeHttpServer.layer(() => createGatewayServer(reads), { host: config.host, port: config.port })),
        Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, MAX_BODY))
      )
    })
    // Provided once, here: the catalog (inside Services) fills and invalidates it, the Node server answers from it.
  ).pipe(Layer.provide(ServiceReadCache.layer))

/**
 * The gateway on the embedded chain: the HTTP app on a Node server at the
 * configured host and port, LocalLedger's JSON-RPC front beside it, over a
 * migrated store and a LocalLedger given from outside, so `main.ts` and the
 * tests compose the same server and differ only in those.
 */
export const layerServer = serve(JsonRpcFront).pipe(Layer.provide(Chain.layerLocal))

/** The gateway on a live Sui network through its JSON-RPC endpoint (`SUI_RPC_URL`). */
export const layerServerLive = (sui: SuiChain.SuiChainConfig) => serve(Layer.empty).pipe(Layer.provide(SuiChain.layer(sui)))
