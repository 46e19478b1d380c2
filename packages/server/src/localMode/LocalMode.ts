import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Faucet, FAUCET_AMOUNT } from "@gateway/local-ledger/Faucet"
import { GrpcFront } from "@gateway/local-ledger/GrpcFront"
import type { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { type LedgerConfig, LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { localTransport } from "@gateway/local-ledger/LocalTransport"
import { AppConfig, type AppConfigShape } from "../Config.ts"
import { layerGateway, layerStore } from "../Server.ts"
import { SponsorFaucet } from "../sponsorship/SponsorFaucet.ts"
import { SuiNode } from "../sui/SuiNode.ts"

/**
 * Local mode, the one place the gateway embeds the local ledger: `npm start`
 * without `SUI_GRPC_URL` runs it in the same process.
 */

/** The LocalLedger these settings describe. */
export const ledgerConfig = (config: AppConfigShape): LedgerConfig => ({
  pkg: config.spendAccountPackage,
  network: config.network,
  checkpointIntervalMs: config.ledgerCheckpointMs,
  referenceGasPrice: BigInt(config.ledgerReferenceGasPrice)
})

/**
 * The gateway's node on the ledger in this process, reached as any wallet
 * reaches a node (a `SuiGrpcClient`), on a transport that calls the same
 * service implementations without a socket; and the ledger's faucet for the sponsor.
 */
const layerLocalNode = Layer.mergeAll(
  Layer.effect(
    SuiNode,
    Effect.gen(function*() {
      const config = yield* AppConfig
      return new SuiGrpcClient({ network: config.network, transport: yield* localTransport })
    })
  ),
  Layer.effect(
    SponsorFaucet,
    LocalLedger.useSync((ledger) =>
      SponsorFaucet.of({ amount: FAUCET_AMOUNT, give: (recipient) => Effect.orDie(Effect.asVoid(ledger.mint(recipient, SUI_COIN_TYPE, FAUCET_AMOUNT))) })
    )
  )
)

/** The gateway on a LocalLedger given from outside, serving the ledger's gRPC-web front at `/sui` and its faucet at `/v2/gas`. */
export const layerLocalServer = layerGateway(Layer.mergeAll(GrpcFront, Faucet)).pipe(Layer.provideMerge(layerLocalNode))

/**
 * The gateway and its ledger over a migrated store, exposing both: `main.ts`
 * runs it with the store's own journal; tests and scripts with a journal in
 * memory and their own store and configuration.
 */
export const layerLocalGateway = <E, R, E2, R2>(
  store: Layer.Layer<SqlClient.SqlClient, E, R>,
  journal: Layer.Layer<LedgerJournal, E2, R2>
) =>
  layerLocalServer.pipe(
    Layer.provideMerge(Layer.unwrap(AppConfig.useSync((config) => LocalLedger.layer(ledgerConfig(config))))),
    Layer.provide(journal),
    Layer.provideMerge(layerStore(store))
  )
