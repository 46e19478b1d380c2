import { assert, describe, it } from "@effect/vitest"
import { Cause, Config, ConfigProvider, Effect, Exit, Option } from "effect"
import { genesisRegistryId } from "@gateway/chain/LocalNetwork"
import { AppConfig, configProblems, defaults, LOCAL_PACKAGE } from "../src/Config.ts"

const parse = (env: Record<string, string>) => AppConfig.fromEnv.parse(ConfigProvider.fromEnv({ env }))

const PACKAGE = `0x${"ab".repeat(32)}`
const UPGRADED = `0x${"cd".repeat(32)}`
const REGISTRY = `0x${"ef".repeat(32)}`
const GRPC = "https://fullnode.testnet.sui.io:443"
// 32 bytes, base64: live mode needs the key sellers' upstream secrets are sealed under.
const CREDENTIALS = Buffer.alloc(32, 7).toString("base64")
const LIVE = { SUI_GRPC_URL: GRPC, SUI_NETWORK: "testnet", SPEND_ACCOUNT_PACKAGE: PACKAGE, SPEND_ACCOUNT_REGISTRY: REGISTRY, CREDENTIALS_KEY: CREDENTIALS }

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

  it.effect("every problem at once: three independent bad variables are all named, and no secret is quoted", () =>
    Effect.gen(function*() {
      const secretKey = "not-a-key-HUNTER2-sponsor"
      const secretCredentials = "c2hvcnQtSFVOVEVSMi1jcmVkZW50aWFscw=="
      const secretDb = "mysql://admin:HUNTER2-db@db.internal/gateway"
      const env = {
        PORT: "not-a-port",
        SESSION_TTL_MS: "1.5",
        TRUSTED_PROXIES: "10.0.0.0/8,nonsense",
        SPONSOR_KEY: secretKey,
        CREDENTIALS_KEY: secretCredentials,
        CREDENTIALS_KEY_PREVIOUS: `${CREDENTIALS},${secretCredentials}`,
        DATABASE_URL: secretDb
      }
      const exit = yield* Effect.exit(parse(env))
      if (Exit.isSuccess(exit)) return assert.fail("accepted")
      const error = Cause.squash(exit.cause)
      assert.instanceOf(error, Config.ConfigError)
      const problems = configProblems(error as Config.ConfigError)
      assert.deepStrictEqual(
        problems.map((problem) => problem.variable).sort(),
        ["CREDENTIALS_KEY", "CREDENTIALS_KEY_PREVIOUS", "DATABASE_URL", "PORT", "SESSION_TTL_MS", "SPONSOR_KEY", "TRUSTED_PROXIES"]
      )
      for (const problem of problems) assert.isTrue(problem.message.startsWith(problem.variable), problem.message)
      const everything = `${String(exit.cause)}\n${JSON.stringify(problems)}`
      for (const secret of ["HUNTER2", secretKey, secretCredentials, secretDb, "admin"]) assert.notInclude(everything, secret)
    }))

  it.effect("three independent problems, one of each kind: a bad value, a live-mode variable missing, an inconsistent combination", () =>
    Effect.gen(function*() {
      const { SUI_NETWORK: _n, CREDENTIALS_KEY: _c, ...live } = LIVE
      const exit = yield* Effect.exit(parse({ ...live, SUI_RPC_URL: GRPC, PORT: "70000" }))
      if (Exit.isSuccess(exit)) return assert.fail("accepted")
      const problems = configProblems(Cause.squash(exit.cause) as Config.ConfigError)
      assert.deepStrictEqual(problems.map((problem) => problem.variable).sort(), ["CREDENTIALS_KEY", "PORT", "SUI_NETWORK", "SUI_RPC_URL"])
      assert.match(String(exit.cause), /SUI_NETWORK must be .* when SUI_GRPC_URL is set/)
      assert.match(String(exit.cause), /CREDENTIALS_KEY must be set when SUI_GRPC_URL is set/)
    }))

  it.effect("valid secrets and a PostgreSQL URL are read as before", () =>
    Effect.gen(function*() {
      const config = yield* parse({ ...LIVE, DATABASE_URL: "postgresql://u:p@localhost:5432/db" })
      assert.isTrue(Option.isSome(config.databaseUrl))
      assert.isTrue(Option.isSome(config.credentialsKey))
    }))
})
