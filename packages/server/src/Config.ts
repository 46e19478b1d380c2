import { Config, ConfigProvider, Context, Layer, Option, Redacted } from "effect"
import type { LedgerConfig } from "@gateway/chain/local/LocalLedger"
import { SuiAddress } from "@gateway/domain/SuiAddress"

/** Everything the server reads from the environment, with its defaults (README "Configuration"). */
export interface AppConfigShape {
  readonly host: string
  readonly port: number
  /** Base URL the gateway is reached at; resourceUrls and manifests are built on it. */
  readonly publicUrl: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  /** Where PGlite keeps its files; in memory when unset. */
  readonly dataDir: Option.Option<string>
  readonly internalHopSecret: Option.Option<Redacted.Redacted>
  readonly internalHopWindowMs: number
  readonly sessionTtlMs: number
  readonly challengeTtlMs: number
  readonly network: string
  /** A prepared grant not finalized within this window reads as failed. */
  readonly pendingGrantTtlMs: number
  /** Where `spend_account` is published. */
  readonly spendAccountPackage: string
  /** LocalLedger makes a checkpoint this often (ms); 0 means only when asked. */
  readonly ledgerCheckpointMs: number
  /** Coin types sellers may price services in. */
  readonly supportedAssets: ReadonlyArray<string>
  /** How long an agent has to pay a 402 challenge. */
  readonly paymentChallengeSeconds: number
  /** A Sui JSON-RPC endpoint: when set, the gateway runs on that network instead of LocalLedger. */
  readonly suiRpcUrl: Option.Option<string>
  /** Sign-in steps (challenges and sessions) one address may take per minute, per replica. */
  readonly signInPerMinute: number
}

/** LocalLedger's default package id: any fixed address serves, since it publishes nothing. */
export const LOCAL_PACKAGE_ID = "0x5e4d000000000000000000000000000000000000000000000000000000000001"

/** A live-mode setting whose failure tells the operator what live mode needs, not just what the parser expected. */
const requiredLive = <A>(name: string, expected: string, config: Config.Config<A>) =>
  Config.orElse(config, (error) =>
    Config.fail(new ConfigProvider.SourceError({ message: `${name} must be ${expected} when SUI_RPC_URL is set`, cause: error })))

/**
 * Which chain the gateway runs on. Live mode (SUI_RPC_URL set) must name its
 * network and package: a local default there would point real payments at a
 * package id that exists only in LocalLedger, so a missing or malformed value
 * fails start-up instead.
 */
const chainConfig = Config.option(Config.String("SUI_RPC_URL")).pipe(
  Config.flatMap(Option.match({
    onNone: () =>
      Config.all({
        suiRpcUrl: Config.succeed(Option.none<string>()),
        network: Config.String("SUI_NETWORK").pipe(Config.withDefault("localnet")),
        spendAccountPackage: Config.String("SPEND_ACCOUNT_PACKAGE").pipe(Config.withDefault(LOCAL_PACKAGE_ID))
      }),
    onSome: (url) =>
      Config.all({
        suiRpcUrl: Config.succeed(Option.some(url)),
        network: requiredLive(
          "SUI_NETWORK",
          "localnet, devnet, testnet or mainnet",
          Config.Literals(["localnet", "devnet", "testnet", "mainnet"], "SUI_NETWORK")
        ),
        spendAccountPackage: requiredLive(
          "SPEND_ACCOUNT_PACKAGE",
          "the published package id (0x and 64 lowercase hex digits)",
          Config.schema(SuiAddress, "SPEND_ACCOUNT_PACKAGE")
        )
      })
  }))
)

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("@gateway/server/AppConfig") {
  static readonly fromEnv: Config.Config<AppConfigShape> = Config.all({
    host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
    port: Config.Port("PORT").pipe(Config.withDefault(8787)),
    publicUrl: Config.option(Config.String("PUBLIC_URL")),
    databaseUrl: Config.option(Config.Redacted("DATABASE_URL")),
    dataDir: Config.option(Config.String("DATA_DIR")),
    internalHopSecret: Config.option(Config.Redacted("INTERNAL_HOP_SECRET")),
    internalHopWindowMs: Config.Int("INTERNAL_HOP_WINDOW_MS").pipe(Config.withDefault(60_000)),
    sessionTtlMs: Config.Int("SESSION_TTL_MS").pipe(Config.withDefault(12 * 60 * 60 * 1000)),
    challengeTtlMs: Config.Int("CHALLENGE_TTL_MS").pipe(Config.withDefault(5 * 60 * 1000)),
    pendingGrantTtlMs: Config.Int("PENDING_GRANT_TTL_MS").pipe(Config.withDefault(24 * 60 * 60 * 1000)),
    ledgerCheckpointMs: Config.Int("LEDGER_CHECKPOINT_MS").pipe(Config.withDefault(250)),
    supportedAssets: Config.String("SUPPORTED_ASSETS").pipe(
      Config.withDefault("0x2::sui::SUI"),
      Config.map((list) => list.split(",").map((s) => s.trim()).filter((s) => s.length > 0))
    ),
    paymentChallengeSeconds: Config.Int("PAYMENT_CHALLENGE_SECONDS").pipe(Config.withDefault(300)),
    signInPerMinute: Config.Int("SIGN_IN_PER_MINUTE").pipe(Config.withDefault(30)),
    chain: chainConfig
  }).pipe(Config.map(({ chain, ...config }) => ({ ...config, ...chain })))

  static readonly layer = (config: AppConfigShape) => Layer.succeed(AppConfig, AppConfig.of(config))

  /** The LocalLedger these settings describe. */
  static readonly ledgerConfig = (config: AppConfigShape): LedgerConfig => ({
    packageId: config.spendAccountPackage,
    network: config.network,
    checkpointIntervalMs: config.ledgerCheckpointMs,
    referenceGasPrice: 1000n
  })
}
