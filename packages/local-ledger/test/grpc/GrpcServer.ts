import { NodeHttpServer } from "@effect/platform-node"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { createServer } from "node:http"
import { Context, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { Faucet } from "../../src/Faucet.ts"
import { GrpcFront } from "../../src/grpc/GrpcFront.ts"
import { LedgerJournal } from "../../src/LedgerJournal.ts"
import { LocalLedger } from "../../src/LocalLedger.ts"

const address = (n: string) => `0x${n.padEnd(64, "0")}`

/** The package as LocalLedger runs it: types under the original id, calls to the published-at id, and the genesis Registry. */
export const PKG: SpendAccountPackage = { originalId: address("5e4d"), publishedAt: address("5e4e"), registryId: address("4e6") }

/** The origin of a test server that serves only LocalLedger: the gRPC-web front at `/sui` and the faucet at `/v2/gas`. */
export class Origin extends Context.Service<Origin, string>()("@gateway/local-ledger/test/Origin") {}

/** A ledger (manual checkpoints) on `journal`, behind its front on an ephemeral port. */
export const grpcServerLayer = (journal: Layer.Layer<LedgerJournal>) =>
  Layer.effect(Origin, HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))).pipe(
    Layer.provideMerge(HttpRouter.serve(Layer.mergeAll(GrpcFront, Faucet), { disableLogger: true, disableListenLog: true })),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(LocalLedger.layer({ pkg: PKG, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
    Layer.provide(journal)
  )

/** A fresh ledger, its journal in memory, behind its front on an ephemeral port. */
export const GrpcServerLayer = grpcServerLayer(LedgerJournal.layerMemory)

/** A plain `SuiGrpcClient` over HTTP, as any wallet would use the local node. */
export const clientFor = (origin: string) => new SuiGrpcClient({ network: "localnet", baseUrl: `${origin}/sui` })
