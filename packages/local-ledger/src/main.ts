import { createServer } from "node:http"
import { join, resolve } from "node:path"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { LOCAL_ORIGINAL_ID, localPackage } from "@gateway/chain/LocalNetwork"
import { Faucet } from "./Faucet.ts"
import { GRPC_PREFIX, GrpcFront } from "./grpc/GrpcFront.ts"
import { LedgerJournal } from "./LedgerJournal.ts"
import { JOURNAL_FILE, layerJournalFile } from "./LedgerJournalFile.ts"
import { IN_MEMORY, LedgerNodeConfig } from "./LedgerNodeConfig.ts"
import { LocalLedger } from "./LocalLedger.ts"

/**
 * `npm run ledger`: LocalLedger as a local Sui node of its own, for a gateway
 * in live mode (or any wallet) to use: Sui's gRPC-web API at `/sui` and its
 * faucet at `/v2/gas` on `LEDGER_HOST`:`LEDGER_PORT`, a checkpoint every
 * `LEDGER_CHECKPOINT_MS`, the state kept in a journal file in
 * `LEDGER_DATA_DIR` that it replays on start (LedgerNodeConfig.ts).
 */

/** The package as the gateway's local mode publishes it, so the ids a gateway needs are the ones it already knows. */
const pkg = localPackage(LOCAL_ORIGINAL_ID)

/** One JSON line on stdout, once the node listens: where, and exactly the environment a gateway needs to run on it. */
const announce = (journal: string) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const origin = HttpServer.formatAddress(server.address)
    yield* Console.log(JSON.stringify({
      listening: origin,
      grpc: `${origin}${GRPC_PREFIX}`,
      faucet: `${origin}/v2/gas`,
      journal,
      gatewayEnv: {
        SUI_GRPC_URL: `${origin}${GRPC_PREFIX}`,
        SUI_NETWORK: "localnet",
        SPEND_ACCOUNT_PACKAGE: pkg.originalId,
        SPEND_ACCOUNT_REGISTRY: pkg.registryId
      }
    }))
  })

const LedgerNode = Layer.unwrap(
  Effect.gen(function*() {
    const config = yield* LedgerNodeConfig
    const inMemory = config.dataDir === IN_MEMORY
    return Layer.effectDiscard(announce(inMemory ? IN_MEMORY : join(resolve(config.dataDir), JOURNAL_FILE))).pipe(
      // No access log: a node answers many small reads, and the gateway logs its own side.
      Layer.provide(HttpRouter.serve(Layer.mergeAll(GrpcFront, Faucet), { disableLogger: true, disableListenLog: true })),
      Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host })),
      Layer.provide(LocalLedger.layer({
        pkg,
        network: "localnet",
        checkpointIntervalMs: config.checkpointMs,
        referenceGasPrice: BigInt(config.referenceGasPrice)
      })),
      Layer.provide(inMemory ? LedgerJournal.layerMemory : layerJournalFile(config.dataDir))
    )
  })
)

Layer.launch(LedgerNode).pipe(NodeRuntime.runMain)
