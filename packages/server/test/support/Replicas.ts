import { Context, Layer, Option, References } from "effect"
import { HttpServer } from "effect/http"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { AppConfig, type AppConfigShape } from "../../src/Config.ts"
import { layerLocalServer, ledgerConfig } from "../../src/localMode/LocalMode.ts"
import { layerStore } from "../../src/Server.ts"
import { TestStore } from "./TestServer.ts"

/** Where each of two replicas listens. */
export class ReplicaA extends Context.Service<ReplicaA, string>()("test/ReplicaA") {}
export class ReplicaB extends Context.Service<ReplicaB, string>()("test/ReplicaB") {}

const replica = <I>(tag: Context.Key<I, string>, config: AppConfigShape) =>
  Layer.effect(tag, HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))).pipe(
    Layer.provide(Layer.fresh(layerLocalServer).pipe(Layer.provide(AppConfig.layer(config))))
  )

/**
 * Two gateway replicas on one store and one chain, as two processes behind a
 * load balancer would be: they share one public URL (replica A's address), so
 * a payment proven for it is proven at either. The ledger and the store are
 * exposed to the test.
 */
export const layerReplicas = (config: AppConfigShape) => {
  const replicaB = Layer.unwrap(ReplicaA.useSync((a) => replica(ReplicaB, { ...config, publicUrl: Option.some(a) })))
  return replicaB.pipe(
    Layer.provideMerge(replica(ReplicaA, config)),
    Layer.provideMerge(LocalLedger.layer(ledgerConfig(config))),
    Layer.provide(LedgerJournal.layerMemory),
    Layer.provideMerge(layerStore(TestStore)),
    Layer.provide(AppConfig.layer(config)),
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Error"))
  )
}
