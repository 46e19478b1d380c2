import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Option } from "effect"
import { genesisRegistryId } from "@gateway/chain/LocalNetwork"
import { AppConfig, defaults, LOCAL_PACKAGE } from "../src/Config.ts"

const parse = (env: Record<string, string>) => AppConfig.fromEnv.parse(ConfigProvider.fromEnv({ env }))

const PACKAGE = `0x${"ab".repeat(32)}`
const UPGRADED = `0x${"cd".repeat(32)}`
const REGISTRY = `0x${"ef".repeat(32)}`
const GRPC = "https://fullnode.testnet.sui.io:443"
const LIVE = { SUI_GRPC_URL: GRPC, SUI_NETWORK: "testnet", SPEND_ACCOUNT_PACKAGE: PACKAGE, SPEND_ACCOUNT_REGISTRY: REGISTRY }

/** The start-up error for this environment, as the operator would read it. */
const refusal = (env: Record<string, string>) =>
  Effect.map(Effect.exit(parse(env)), (exit) => {
    if (Exit.isSuccess(exit)) return assert.fail(`accepted ${JSON.stringify(env)}`)
    return String(exit.cause)
  })

describe("AppConfig.fromEnv", () => {
  it.effect("local mode keeps its defaults, declared once", () =>
    Effect.gen(function*() {
      const config = yield* parse({})
      assert.deepStrictEqual(config, defaults)
      assert.deepStrictEqual(config.spendAccountPackage, LOCAL_PACKAGE)
      assert.strictEqual(LOCAL_PACKAGE.publishedAt, LOCAL_PACKAGE.originalId)
      assert.strictEqual(LOCAL_PACKAGE.registryId, genesisRegistryId(LOCAL_PACKAGE.originalId))
      assert.strictEqual((yield* parse({ SUI_NETWORK: "my-net" })).network, "my-net")
    }))

  it.effect("local mode on another package id finds its Registry where LocalLedger's genesis puts it", () =>
    Effect.gen(function*() {
      const config = yield* parse({ SPEND_ACCOUNT_PACKAGE: PACKAGE })
      assert.deepStrictEqual(config.spendAccountPackage, { originalId: PACKAGE, publishedAt: PACKAGE, registryId: genesisRegistryId(PACKAGE) })
    }))

  it.effect("live mode takes an explicit known network, package and Registry; published-at defaults to the original id", () =>
    Effect.gen(function*() {
      const config = yield* parse(LIVE)
      assert.deepStrictEqual(config.suiGrpcUrl, Option.some(GRPC))
      assert.strictEqual(config.network, "testnet")
      assert.deepStrictEqual(config.spendAccountPackage, { originalId: PACKAGE, publishedAt: PACKAGE, registryId: REGISTRY })
      const upgraded = yield* parse({ ...LIVE, SPEND_ACCOUNT_PUBLISHED_AT: UPGRADED })
      assert.deepStrictEqual(upgraded.spendAccountPackage, { originalId: PACKAGE, publishedAt: UPGRADED, registryId: REGISTRY })
    }))

  it.effect("live mode refuses a missing or unknown network and a missing or malformed package, published-at or Registry", () =>
    Effect.gen(function*() {
      const { SUI_NETWORK: _n, ...noNetwork } = LIVE
      const { SPEND_ACCOUNT_PACKAGE: _p, ...noPackage } = LIVE
      const { SPEND_ACCOUNT_REGISTRY: _r, ...noRegistry } = LIVE
      assert.match(yield* refusal(noNetwork), /SUI_NETWORK must be .* when SUI_GRPC_URL is set/)
      assert.match(yield* refusal({ ...LIVE, SUI_NETWORK: "testnt" }), /SUI_NETWORK must be .* when SUI_GRPC_URL is set/)
      assert.match(yield* refusal(noPackage), /SPEND_ACCOUNT_PACKAGE must be .* when SUI_GRPC_URL is set/)
      assert.match(yield* refusal({ ...LIVE, SPEND_ACCOUNT_PACKAGE: "0x2" }), /SPEND_ACCOUNT_PACKAGE must be .* when SUI_GRPC_URL is set/)
      assert.match(yield* refusal(noRegistry), /SPEND_ACCOUNT_REGISTRY must be .* when SUI_GRPC_URL is set/)
      assert.match(yield* refusal({ ...LIVE, SPEND_ACCOUNT_PUBLISHED_AT: "0x2" }), /SPEND_ACCOUNT_PUBLISHED_AT must be .* when SUI_GRPC_URL is set/)
    }))

  it.effect("SUI_RPC_URL, the retired JSON-RPC endpoint, is refused with a message naming SUI_GRPC_URL", () =>
    Effect.gen(function*() {
      assert.match(yield* refusal({ SUI_RPC_URL: GRPC }), /SUI_RPC_URL is no longer read.*SUI_GRPC_URL/)
      assert.match(yield* refusal({ ...LIVE, SUI_RPC_URL: GRPC }), /SUI_GRPC_URL/)
    }))

  it.effect("a pending-grant TTL past a week is refused: every create would carry a deadline the module refuses", () =>
    Effect.gen(function*() {
      assert.match(yield* refusal({ PENDING_GRANT_TTL_MS: "604800001" }), /PENDING_GRANT_TTL_MS must be between 1 and 604800000/)
      assert.match(yield* refusal({ PENDING_GRANT_TTL_MS: "0" }), /PENDING_GRANT_TTL_MS/)
      assert.strictEqual((yield* parse({ PENDING_GRANT_TTL_MS: "604800000" })).pendingGrantTtlMs, 604_800_000)
    }))
})
