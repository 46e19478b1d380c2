import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Effect, Layer, Option } from "effect"
import * as SuiChain from "@gateway/chain/sui/SuiChain"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../../src/Config.ts"
import { CatalogRepo } from "../../src/catalog/CatalogRepo.ts"
import { RateLimits } from "../../src/limits/RateLimits.ts"
import { layerStore } from "../../src/Server.ts"
import { SuiNode } from "../../src/sui/SuiNode.ts"
import { Sponsorship } from "../../src/sponsorship/Sponsorship.ts"
import { GatewayKeyRepo } from "../../src/storage/GatewayKeyRepo.ts"
import { failsWith } from "../support/Assertions.ts"
import { testConfig, TestStore } from "../support/TestServer.ts"

const DEAD_NODE = "http://127.0.0.1:9"

/** Live mode (a node URL nobody answers at: nothing is asked of it) without SPONSOR_KEY. */
const LiveWithoutKey = Sponsorship.layer.pipe(
  Layer.provide(Layer.mergeAll(GatewayKeyRepo.layer, RateLimits.layer, CatalogRepo.layer)),
  Layer.provide(SuiChain.layer({
    client: new SuiGrpcClient({ network: "testnet", baseUrl: DEAD_NODE }),
    network: "testnet",
    pkg: testConfig.spendAccountPackage,
    assets: testConfig.supportedAssets
  })),
  Layer.provide(Layer.mergeAll(layerStore(TestStore), SuiNode.layerRemote(DEAD_NODE))),
  Layer.provide(AppConfig.layer({ ...testConfig, suiGrpcUrl: Option.some(DEAD_NODE) }))
)

describe("gas sponsorship switched off", () => {
  layer(LiveWithoutKey)((it) => {
    it.effect("live mode without SPONSOR_KEY sponsors nothing and says so", () =>
      Effect.gen(function*() {
        const sponsorship = yield* Sponsorship
        const owner = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        const off = yield* failsWith(sponsorship.sponsor(owner, "AA=="), "UNAVAILABLE")
        assert.strictEqual(off.reason, "sponsorship_off")
        assert.match(off.message, /pay gas from your own wallet/)
        yield* failsWith(sponsorship.execute(owner, "AA==", "AA=="), "UNAVAILABLE")
      }))

    it.effect("live mode without SPONSOR_KEY sponsors no payment, says so, and names no sponsor", () =>
      Effect.gen(function*() {
        const sponsorship = yield* Sponsorship
        const payer = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
        const off = yield* failsWith(sponsorship.sponsorPayment(payer, "AA=="), "UNAVAILABLE")
        assert.strictEqual(off.reason, "sponsorship_off")
        assert.match(off.message, /pay gas from the payer's own coins/)
        assert.strictEqual((yield* failsWith(sponsorship.heldPayment(payer, new Uint8Array([0])), "UNAVAILABLE")).reason, "sponsorship_off")
        assert.strictEqual((yield* failsWith(sponsorship.cosignPayment(payer, new Uint8Array([0])), "UNAVAILABLE")).reason, "sponsorship_off")
        yield* sponsorship.settledPayment(new Uint8Array([0]), undefined)
        assert.isTrue(Option.isNone(sponsorship.sponsorAddress))
        assert.isTrue(Option.isNone(yield* sponsorship.sponsorFunds))
      }))
  })
})
