import { Context, Layer } from "effect"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { AppConfig } from "../Config.ts"

/**
 * The Sui full node the gateway reads and writes, as one gRPC client every
 * feature shares: a live node at `SUI_GRPC_URL`, or the embedded ledger
 * reached without a socket (local mode provides it, `localMode/LocalMode.ts`).
 */
export class SuiNode extends Context.Service<SuiNode, SuiGrpcClient>()("@gateway/server/SuiNode") {
  /** A full node over the network, at `baseUrl`. */
  static readonly layerRemote = (baseUrl: string) =>
    Layer.effect(SuiNode, AppConfig.useSync((config) => new SuiGrpcClient({ network: config.network, baseUrl })))
}
