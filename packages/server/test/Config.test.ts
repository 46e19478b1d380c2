import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Option } from "effect"
import { AppConfig, LOCAL_PACKAGE_ID } from "../src/Config.ts"

const parse = (env: Record<string, string>) => AppConfig.fromEnv.parse(ConfigProvider.fromEnv({ env }))

const PACKAGE = `0x${"ab".repeat(32)}`
const RPC = "https://fullnode.testnet.sui.io:443"

/** The start-up error for this environment, as the operator would read it. */
const refusal = (env: Record<string, string>) =>
  Effect.map(Effect.exit(parse(env)), (exit) => {
    if (Exit.isSuccess(exit)) return assert.fail(`accepted ${JSON.stringify(env)}`)
    return String(exit.cause)
  })

describe("AppConfig.fromEnv", () => {
  it.effect("local mode keeps its defaults", () =>
    Effect.gen(function*() {
      const config = yield* parse({})
      assert.isTrue(Option.isNone(config.suiRpcUrl))
      assert.strictEqual(config.network, "localnet")
      assert.strictEqual(config.spendAccountPackage, LOCAL_PACKAGE_ID)
      assert.strictEqual((yield* parse({ SUI_NETWORK: "my-net" })).network, "my-net")
    }))

  it.effect("live mode takes an explicit known network and package", () =>
    Effect.gen(function*() {
      const config = yield* parse({ SUI_RPC_URL: RPC, SUI_NETWORK: "testnet", SPEND_ACCOUNT_PACKAGE: PACKAGE })
      assert.deepStrictEqual(config.suiRpcUrl, Option.some(RPC))
      assert.strictEqual(config.network, "testnet")
      assert.strictEqual(config.spendAccountPackage, PACKAGE)
    }))

  it.effect("live mode refuses a missing or unknown network and a missing or malformed package", () =>
    Effect.gen(function*() {
      assert.match(yield* refusal({ SUI_RPC_URL: RPC, SPEND_ACCOUNT_PACKAGE: PACKAGE }), /SUI_NETWORK must be .* when SUI_RPC_URL is set/)
      assert.match(yield* refusal({ SUI_RPC_URL: RPC, SUI_NETWORK: "testnt", SPEND_ACCOUNT_PACKAGE: PACKAGE }), /SUI_NETWORK must be .* when SUI_RPC_URL is set/)
      assert.match(yield* refusal({ SUI_RPC_URL: RPC, SUI_NETWORK: "testnet" }), /SPEND_ACCOUNT_PACKAGE must be .* when SUI_RPC_URL is set/)
      assert.match(yield* refusal({ SUI_RPC_URL: RPC, SUI_NETWORK: "testnet", SPEND_ACCOUNT_PACKAGE: "0x2" }), /SPEND_ACCOUNT_PACKAGE must be .* when SUI_RPC_URL is set/)
    }))
})
