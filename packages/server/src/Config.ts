import { Config, ConfigProvider, Context, Layer, Option, Redacted, Result } from "effect"
import { IpNetwork } from "effect/net"
import { genesisRegistryId, LOCAL_ORIGINAL_ID, localPackage } from "@gateway/chain/LocalNetwork"
import { keypairFromExport } from "@gateway/domain/chain/KeypairExport"
import { MAX_CREATE_LIFETIME_MS, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"

/** Everything the server reads from the environment, with its defaults (README "Configuration"). */
export interface AppConfigShape {
  readonly host: string
  readonly port: number
  /** Base URL the gateway is reached at; resourceUrls and manifests are built on it. */
  readonly publicUrl: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  /** Where PGlite keeps its files; in memory when none. */
  readonly dataDir: Option.Option<string>
  readonly internalHopSecret: Option.Option<Redacted.Redacted>
  readonly internalHopWindowMs: number
  readonly sessionTtlMs: number
  readonly challengeTtlMs: number
  readonly network: string
  /** A prepared grant's create kind is valid this long (its on-chain deadline); a grant not live by then is failed for good. */
  readonly pendingGrantTtlMs: number
  /** Where `spend_account` lives: original id, published-at id, Registry. */
  readonly spendAccountPackage: SpendAccountPackage
  /** LocalLedger makes a checkpoint this often (ms); 0 means only when asked. */
  readonly ledgerCheckpointMs: number
  /** The reference gas price (MIST per unit) LocalLedger announces and charges at. */
  readonly ledgerReferenceGasPrice: number
  /** Coin types sellers may price services in. */
  readonly supportedAssets: ReadonlyArray<string>
  /** How long an agent has to pay a 402 challenge. */
  readonly paymentChallengeSeconds: number
  /** Payment challenges (402s to calls without a credential) one client may ask for per minute. */
  readonly paymentChallengesPerMinute: number
  /** Paid-call credentials that fail (a fresh 402, or a payment that does not verify) one client may present per minute. */
  readonly paymentFailuresPerMinute: number
  /** A Sui full node's gRPC URL: when set, the gateway runs on that network instead of LocalLedger. */
  readonly suiGrpcUrl: Option.Option<string>
  /** Sign-in steps (challenges and sessions) one address may take per minute, per replica. */
  readonly signInPerMinute: number
  /** Sign-in challenges one client (network address) may ask for per minute, per replica. */
  readonly signInChallengesPerMinute: number
  /** Proxies (CIDRs) whose `X-Forwarded-For` names the client; from anyone else the header is ignored. */
  readonly trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>
  /** How often each replica deletes expired sign-in challenges and sessions. */
  readonly storeSweepIntervalMs: number
  /** Upstreams on loopback or private addresses that are allowed anyway, as `host:port` (local development and tests only). */
  readonly upstreamAllowHosts: ReadonlyArray<string>
  /** The most of a seller's answer the gateway reads, keeps and returns. */
  readonly upstreamMaxBodyBytes: number
  /** How long the gateway waits for a seller's whole answer. */
  readonly upstreamTimeoutMs: number
  /** How long a paid call's stored answer can be fetched again with the same credential. */
  readonly paidAnswerRetentionMs: number
  /**
   * On SIGTERM the gateway stops accepting and lets requests in flight finish for at most this long (longer than
   * UPSTREAM_TIMEOUT_MS, so a paid call's forward and its record complete), then closes the store and exits 0.
   */
  readonly shutdownGraceMs: number
  /**
   * On SIGTERM, how long the gateway keeps serving with `/health/ready` at 503 before it stops accepting: time for
   * a load balancer's probe to take it out of rotation, so no request reaches a closing listener.
   */
  readonly shutdownDelayMs: number
  /** The key sellers' upstream credentials are encrypted under (32 bytes, base64); local mode makes one when unset. */
  readonly credentialsKey: Option.Option<Redacted.Redacted>
  /**
   * Keys credentials were sealed under before CREDENTIALS_KEY (comma-separated, 32 bytes base64 each): still
   * read, and every credential under one is re-sealed under CREDENTIALS_KEY at start; drop them once the
   * gateway logs that none is left.
   */
  readonly credentialsKeysPrevious: ReadonlyArray<Redacted.Redacted>
  /** Drafts one seller may hold at once. */
  readonly sellerMaxDrafts: number
  /** Live services one seller may have at once. */
  readonly sellerMaxLive: number
  /** The most services `/llms.txt` lists before linking to the paginated catalog. */
  readonly llmsTxtMaxServices: number
  /** The whole of one request, body included, must arrive within this (Node's requestTimeout). */
  readonly requestTimeoutMs: number
  /** A request's headers must arrive within this (Node's headersTimeout). */
  readonly headersTimeoutMs: number
  /** An idle keep-alive connection is closed after this (Node's keepAliveTimeout). */
  readonly keepAliveTimeoutMs: number
  /** The key that pays gas for owners' own calls (`suiprivkey1…`); local mode makes one when unset, live mode then sponsors nothing. */
  readonly sponsorKey: Option.Option<Redacted.Redacted>
  /** The most gas (MIST) one sponsored transaction may budget. */
  readonly sponsorGasBudgetMax: number
  /** Sponsorship requests (built or executed) one owner may make per minute, counted in the store. */
  readonly sponsorPerOwnerPerMinute: number
  /** Gas (MIST of budget) one owner with something at stake may be sponsored per day. */
  readonly sponsorOwnerGasPerDay: number
  /** Gas (MIST of budget) an address with nothing at stake (no funded spend account, no live service) may be sponsored per day. */
  readonly sponsorNewcomerGasPerDay: number
  /** Gas (MIST of budget) the sponsor pays for everyone together per minute: what bounds its spend. */
  readonly sponsorGasPerMinute: number
  /** The share of `sponsorGasPerMinute` addresses with nothing at stake may use together. */
  readonly sponsorNewcomerGasPerMinute: number
  /** Gas-station requests (`POST /v1/gas-station`, refused ones included) one payer may make per minute, counted in the store. */
  readonly sponsorPaymentRequestsPerPayerPerMinute: number
  /** Gas (MIST of budget) the gas station pays for everyone's payments together per minute, apart from `sponsorGasPerMinute`. */
  readonly sponsorPaymentGasPerMinute: number
  /** Gas (MIST of budget) the gas station pays per day for grant payments through one grant owner's grants, all its agents together. */
  readonly sponsorPaymentGasPerGrantOwnerPerDay: number
  /** Gas (MIST of budget) the gas station pays per day for one payer's plain transfers of its own coins. */
  readonly sponsorPaymentGasPerPayerPerDay: number
  /** How long a built sponsored transaction holds its gas coin; after it the gateway no longer co-signs it. */
  readonly sponsorReservationMs: number
  /** Free gas coins the sponsor keeps split off, so that many builds can hold one each at once. */
  readonly sponsorPoolCoins: number
  /** What each of the sponsor's pool coins holds when split off (MIST). */
  readonly sponsorCoinMist: number
  /** Below this much SUI (MIST) the sponsor pays no more payments' gas (503 `sponsor_balance_below_floor`), and `/health` says so. */
  readonly sponsorBalanceFloorMist: number
  /** MCP sessions the replica holds at once; beyond it the longest idle is ended. */
  readonly mcpMaxSessions: number
  /** MCP sessions one client (network address) holds at once; beyond it that client's longest idle is ended. */
  readonly mcpSessionsPerClient: number
  /** An MCP session unused this long is ended. */
  readonly mcpSessionIdleMs: number
}

/** The package LocalLedger serves: never upgraded, its Registry the one the ledger creates at genesis. */
export const LOCAL_PACKAGE: SpendAccountPackage = localPackage(LOCAL_ORIGINAL_ID)

/** Every setting's default, declared once: `fromEnv` falls back to these, and tests and scripts start from them. */
export const defaults: AppConfigShape = {
  host: "127.0.0.1",
  port: 8787,
  publicUrl: Option.none(),
  databaseUrl: Option.none(),
  dataDir: Option.some("./data"),
  internalHopSecret: Option.none(),
  internalHopWindowMs: 60_000,
  sessionTtlMs: 12 * 60 * 60 * 1000,
  challengeTtlMs: 5 * 60 * 1000,
  network: "localnet",
  pendingGrantTtlMs: 24 * 60 * 60 * 1000,
  spendAccountPackage: LOCAL_PACKAGE,
  ledgerCheckpointMs: 250,
  ledgerReferenceGasPrice: 1000,
  supportedAssets: ["0x2::sui::SUI"],
  paymentChallengeSeconds: 300,
  paymentChallengesPerMinute: 600,
  paymentFailuresPerMinute: 60,
  suiGrpcUrl: Option.none(),
  signInPerMinute: 30,
  signInChallengesPerMinute: 10,
  trustedProxies: [],
  storeSweepIntervalMs: 10 * 60 * 1000,
  upstreamAllowHosts: [],
  upstreamMaxBodyBytes: 10 * 1024 * 1024,
  upstreamTimeoutMs: 15_000,
  paidAnswerRetentionMs: 24 * 60 * 60 * 1000,
  shutdownGraceMs: 25_000,
  shutdownDelayMs: 2_000,
  credentialsKey: Option.none(),
  credentialsKeysPrevious: [],
  sellerMaxDrafts: 20,
  sellerMaxLive: 50,
  llmsTxtMaxServices: 100,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  sponsorKey: Option.none(),
  sponsorGasBudgetMax: 50_000_000,
  sponsorPerOwnerPerMinute: 10,
  sponsorOwnerGasPerDay: 500_000_000,
  sponsorNewcomerGasPerDay: 25_000_000,
  sponsorGasPerMinute: 100_000_000,
  sponsorNewcomerGasPerMinute: 50_000_000,
  sponsorPaymentRequestsPerPayerPerMinute: 600,
  // About 600 grant payments a minute at ~8.5M MIST of budget each; unspent budget comes back after execution.
  sponsorPaymentGasPerMinute: 1_000_000_000,
  sponsorPaymentGasPerGrantOwnerPerDay: 5_000_000_000,
  sponsorPaymentGasPerPayerPerDay: 500_000_000,
  sponsorReservationMs: 60_000,
  sponsorPoolCoins: 16,
  sponsorCoinMist: 1_000_000_000,
  // Ten budgets at the cap: what the pool's own upkeep may budget (CoinPool's maintenance reserve), kept for it.
  sponsorBalanceFloorMist: 500_000_000,
  mcpMaxSessions: 10_000,
  mcpSessionsPerClient: 100,
  mcpSessionIdleMs: 30 * 60 * 1000
}

/** One thing wrong with the environment: the variable it is about and what is wrong with it (never its value when secret). */
export interface ConfigProblem {
  readonly variable: string
  readonly message: string
}

/** Every problem found in one reading: the cause of the one error `fromEnv` fails with. */
export class ConfigProblems {
  readonly _tag = "ConfigProblems"
  readonly problems: ReadonlyArray<ConfigProblem>
  constructor(problems: ReadonlyArray<ConfigProblem>) {
    this.problems = problems
  }
  toString() {
    return this.problems.map((problem) => problem.message).join("\n")
  }
}

const refuse = (message: string, cause?: unknown) => Config.fail(new ConfigProvider.SourceError({ message, cause }))

/** The problems a failed `fromEnv` found, all of them; an error of any other origin as one problem. */
export const configProblems = (error: Config.ConfigError): ReadonlyArray<ConfigProblem> =>
  error.cause._tag === "SourceError" && error.cause.cause instanceof ConfigProblems
    ? error.cause.cause.problems
    : [{ variable: "unknown", message: error.message }]

/** A reading that goes on past a bad variable: its value, or the problems found. */
type Checked<A> = Config.Config<Result.Result<A, ReadonlyArray<ConfigProblem>>>

/** What is wrong with `variable`: the refusal's own sentence, or effect's expectation, quoting no value. */
const describe = (variable: string, error: Config.ConfigError): string => {
  if (error.cause._tag === "SourceError") return error.cause.message
  const expected = (error.cause.message.split("\n")[0] ?? "").trim()
  return `${variable}: ${expected.charAt(0).toLowerCase()}${expected.slice(1)}`
}

/** One variable read on its own: a failure becomes a problem naming it instead of ending the reading. */
const check = <A>(variable: string, config: Config.Config<A>): Checked<A> =>
  config.pipe(
    Config.map((value): Result.Result<A, ReadonlyArray<ConfigProblem>> => Result.succeed(value)),
    Config.orElse((error) => Config.succeed(Result.fail([{ variable, message: describe(variable, error) }])))
  )

/** Independent readings together: every value, or every problem any of them found. */
type Collected<R> = { -readonly [K in keyof R]: R[K] extends Checked<infer A> ? A : never }

const collect = <const R extends Record<string, Checked<unknown>>>(fields: R): Checked<Collected<R>> =>
  Config.map(Config.all(fields), (results) => {
    const entries = Object.entries(results as Record<string, Result.Result<unknown, ReadonlyArray<ConfigProblem>>>)
    const problems = entries.flatMap(([, result]) => (Result.isFailure(result) ? result.failure : []))
    if (problems.length > 0) return Result.fail(problems)
    // Every field read: the object has exactly R's keys, each holding its reading's value.
    return Result.succeed(Object.fromEntries(entries.map(([key, result]) => [key, Result.isSuccess(result) ? result.success : undefined])) as Collected<R>)
  })

const int = (name: string, fallback: number) => check(name, Config.Int(name).pipe(Config.withDefault(fallback)))

const listOf = (name: string, fallback: ReadonlyArray<string>) =>
  Config.String(name).pipe(
    Config.map((value) => value.split(",").map((s) => s.trim()).filter((s) => s.length > 0)),
    Config.withDefault(fallback)
  )

const list = (name: string, fallback: ReadonlyArray<string>) => check(name, listOf(name, fallback))

/** Comma-separated networks in CIDR form; one that does not parse fails start-up, naming it. */
const networks = (name: string) =>
  check(
    name,
    listOf(name, []).pipe(Config.flatMap((values) => {
      const parsed: Array<IpNetwork.IpNetwork> = []
      for (const value of values) {
        const network = IpNetwork.fromString(value)
        if (Result.isFailure(network)) return refuse(`${name}: "${value}" is not a network in CIDR form (e.g. 10.0.0.0/8 or 203.0.113.7/32)`)
        parsed.push(network.success)
      }
      return Config.succeed(parsed)
    }))
  )

/** A live-mode setting whose failure tells the operator what live mode needs, not just what the parser expected. */
const requiredLive = <A>(name: string, expected: string, config: Config.Config<A>) =>
  check(name, Config.orElse(config, (error) => refuse(`${name} must be ${expected} when SUI_GRPC_URL is set`, error)))

const packageId = (name: string, expected: string) => requiredLive(name, expected, Config.schema(SuiAddress, name))

const grpcUrl = Config.option(Config.String("SUI_GRPC_URL"))

/**
 * Which chain the gateway runs on. Live mode (SUI_GRPC_URL set) must name its
 * network, package and Registry: a local default there would point real
 * payments at ids that exist only in LocalLedger, so a missing or malformed
 * value fails start-up instead. SUI_RPC_URL named the retired JSON-RPC
 * endpoint; it is refused rather than ignored, so nobody runs on LocalLedger
 * believing they are live.
 */
const chainSettings = grpcUrl.pipe(
  Config.flatMap(Option.match({
    onNone: () =>
      collect({
        suiGrpcUrl: check("SUI_GRPC_URL", Config.succeed(Option.none<string>())),
        network: check("SUI_NETWORK", Config.String("SUI_NETWORK").pipe(Config.withDefault(defaults.network))),
        originalId: check("SPEND_ACCOUNT_PACKAGE", Config.schema(SuiAddress, "SPEND_ACCOUNT_PACKAGE").pipe(Config.withDefault(LOCAL_ORIGINAL_ID))),
        publishedAt: check("SPEND_ACCOUNT_PUBLISHED_AT", Config.option(Config.schema(SuiAddress, "SPEND_ACCOUNT_PUBLISHED_AT"))),
        registryId: check("SPEND_ACCOUNT_REGISTRY", Config.option(Config.schema(SuiAddress, "SPEND_ACCOUNT_REGISTRY")))
      }).pipe(Config.map(Result.map(({ originalId, publishedAt, registryId, ...rest }) => ({
        ...rest,
        spendAccountPackage: {
          originalId,
          publishedAt: Option.getOrElse(publishedAt, () => originalId),
          registryId: Option.getOrElse(registryId, () => genesisRegistryId(originalId))
        } as SpendAccountPackage
      })))),
    onSome: (url) =>
      collect({
        suiGrpcUrl: check("SUI_GRPC_URL", Config.succeed(Option.some(url))),
        network: requiredLive(
          "SUI_NETWORK",
          "localnet, devnet, testnet or mainnet",
          Config.Literals(["localnet", "devnet", "testnet", "mainnet"], "SUI_NETWORK")
        ),
        originalId: packageId("SPEND_ACCOUNT_PACKAGE", "the package's original id (0x and 64 lowercase hex digits)"),
        publishedAt: requiredLive(
          "SPEND_ACCOUNT_PUBLISHED_AT",
          "the id of the package version in use (0x and 64 lowercase hex digits), or unset",
          Config.option(Config.schema(SuiAddress, "SPEND_ACCOUNT_PUBLISHED_AT"))
        ),
        registryId: packageId("SPEND_ACCOUNT_REGISTRY", "the id of the package's shared Registry (0x and 64 lowercase hex digits)")
      }).pipe(Config.map(Result.map(({ originalId, publishedAt, registryId, ...rest }) => ({
        ...rest,
        network: rest.network as string,
        spendAccountPackage: { originalId, publishedAt: Option.getOrElse(publishedAt, () => originalId), registryId } as SpendAccountPackage
      }))))
  }))
)

const chainConfig = collect({
  retired: check(
    "SUI_RPC_URL",
    Config.option(Config.String("SUI_RPC_URL")).pipe(Config.flatMap(Option.match({
      onSome: () =>
        refuse(
          "SUI_RPC_URL is no longer read: Sui retired JSON-RPC. Set SUI_GRPC_URL to a full node's gRPC URL (e.g. https://fullnode.testnet.sui.io:443) instead"
        ),
      onNone: () => Config.succeed(undefined)
    })))
  ),
  chain: chainSettings
}).pipe(Config.map(Result.map(({ chain }) => chain)))

/**
 * CREDENTIALS_KEY: 32 bytes, base64 (what SellerCredentials seals under), and
 * required in live mode. Checked here, before the store is opened, never quoting the value.
 */
const credentialsKey = check(
  "CREDENTIALS_KEY",
  Config.all({ key: Config.option(Config.Redacted("CREDENTIALS_KEY")), live: grpcUrl }).pipe(Config.flatMap(({ key, live }): Config.Config<Option.Option<Redacted.Redacted>> => {
    if (Option.isNone(key)) {
      return Option.isSome(live)
        ? refuse("CREDENTIALS_KEY must be set when SUI_GRPC_URL is set: sellers' upstream secrets are encrypted under it (e.g. `openssl rand -base64 32`)")
        : Config.succeed(key)
    }
    return Buffer.from(Redacted.value(key.value), "base64").length === 32
      ? Config.succeed(key)
      : refuse("CREDENTIALS_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`); the value is not shown")
  }))
)

/** CREDENTIALS_KEY_PREVIOUS: earlier credentials keys, each 32 bytes base64, never quoted. */
const credentialsKeysPrevious = check(
  "CREDENTIALS_KEY_PREVIOUS",
  Config.option(Config.Redacted("CREDENTIALS_KEY_PREVIOUS")).pipe(Config.flatMap((value): Config.Config<ReadonlyArray<Redacted.Redacted>> => {
    if (Option.isNone(value)) return Config.succeed([])
    const keys = Redacted.value(value.value).split(",").map((k) => k.trim()).filter((k) => k.length > 0)
    return keys.every((k) => Buffer.from(k, "base64").length === 32)
      ? Config.succeed(keys.map((k) => Redacted.make(k)))
      : refuse("CREDENTIALS_KEY_PREVIOUS must be comma-separated keys of 32 bytes, base64-encoded each; the values are not shown")
  }))
)

/** SPONSOR_KEY, when set: a key export SponsorKey can use, checked before the store is opened, never quoting the value. */
const sponsorKey = check(
  "SPONSOR_KEY",
  Config.option(Config.Redacted("SPONSOR_KEY")).pipe(Config.flatMap((key): Config.Config<Option.Option<Redacted.Redacted>> =>
    Option.isNone(key) || keypairFromExport(Redacted.value(key.value)) !== undefined
      ? Config.succeed(key)
      : refuse("SPONSOR_KEY must be a Sui private key export (suiprivkey1…) of an Ed25519, Secp256k1 or Secp256r1 key; the value is not shown")
  ))
)

/** DATABASE_URL, when set: a PostgreSQL URL. The message never quotes it: it may hold a password. */
const databaseUrl = check(
  "DATABASE_URL",
  Config.option(Config.Redacted("DATABASE_URL")).pipe(Config.flatMap((url): Config.Config<Option.Option<Redacted.Redacted>> => {
    if (Option.isNone(url)) return Config.succeed(url)
    const protocol = URL.canParse(Redacted.value(url.value)) ? new URL(Redacted.value(url.value)).protocol : undefined
    return protocol === "postgres:" || protocol === "postgresql:"
      ? Config.succeed(url)
      : refuse("DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); the value is not shown")
  }))
)

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("@gateway/server/AppConfig") {
  static readonly fromEnv: Config.Config<AppConfigShape> = collect({
    host: check("HOST", Config.String("HOST").pipe(Config.withDefault(defaults.host))),
    port: check("PORT", Config.Port("PORT").pipe(Config.withDefault(defaults.port))),
    publicUrl: check("PUBLIC_URL", Config.option(Config.String("PUBLIC_URL"))),
    databaseUrl,
    dataDir: check("DATA_DIR", Config.String("DATA_DIR").pipe(Config.map(Option.some), Config.withDefault(defaults.dataDir))),
    internalHopSecret: check("INTERNAL_HOP_SECRET", Config.option(Config.Redacted("INTERNAL_HOP_SECRET"))),
    internalHopWindowMs: int("INTERNAL_HOP_WINDOW_MS", defaults.internalHopWindowMs),
    sessionTtlMs: int("SESSION_TTL_MS", defaults.sessionTtlMs),
    challengeTtlMs: int("CHALLENGE_TTL_MS", defaults.challengeTtlMs),
    pendingGrantTtlMs: check(
      "PENDING_GRANT_TTL_MS",
      Config.Int("PENDING_GRANT_TTL_MS").pipe(
        Config.withDefault(defaults.pendingGrantTtlMs),
        // The create's deadline: the module refuses one more than a week away (EDeadlineTooFar), so every create would abort.
        Config.flatMap((ms) =>
          ms > 0 && BigInt(ms) <= MAX_CREATE_LIFETIME_MS
            ? Config.succeed(ms)
            : refuse(`PENDING_GRANT_TTL_MS must be between 1 and ${MAX_CREATE_LIFETIME_MS} (a week, the furthest deadline a create may carry on chain), not ${ms}`)
        )
      )
    ),
    ledgerCheckpointMs: int("LEDGER_CHECKPOINT_MS", defaults.ledgerCheckpointMs),
    ledgerReferenceGasPrice: int("LEDGER_REFERENCE_GAS_PRICE", defaults.ledgerReferenceGasPrice),
    supportedAssets: list("SUPPORTED_ASSETS", defaults.supportedAssets),
    paymentChallengeSeconds: int("PAYMENT_CHALLENGE_SECONDS", defaults.paymentChallengeSeconds),
    paymentChallengesPerMinute: int("PAYMENT_CHALLENGES_PER_MINUTE", defaults.paymentChallengesPerMinute),
    paymentFailuresPerMinute: int("PAYMENT_FAILURES_PER_MINUTE", defaults.paymentFailuresPerMinute),
    signInPerMinute: int("SIGN_IN_PER_MINUTE", defaults.signInPerMinute),
    signInChallengesPerMinute: int("SIGN_IN_CHALLENGES_PER_MINUTE", defaults.signInChallengesPerMinute),
    trustedProxies: networks("TRUSTED_PROXIES"),
    storeSweepIntervalMs: int("STORE_SWEEP_INTERVAL_MS", defaults.storeSweepIntervalMs),
    upstreamAllowHosts: list("UPSTREAM_ALLOW_HOSTS", defaults.upstreamAllowHosts),
    upstreamMaxBodyBytes: int("UPSTREAM_MAX_BODY_BYTES", defaults.upstreamMaxBodyBytes),
    upstreamTimeoutMs: int("UPSTREAM_TIMEOUT_MS", defaults.upstreamTimeoutMs),
    paidAnswerRetentionMs: int("PAID_ANSWER_RETENTION_MS", defaults.paidAnswerRetentionMs),
    shutdownGraceMs: int("SHUTDOWN_GRACE_MS", defaults.shutdownGraceMs),
    shutdownDelayMs: int("SHUTDOWN_DELAY_MS", defaults.shutdownDelayMs),
    credentialsKey,
    credentialsKeysPrevious,
    sellerMaxDrafts: int("SELLER_MAX_DRAFTS", defaults.sellerMaxDrafts),
    sellerMaxLive: int("SELLER_MAX_LIVE", defaults.sellerMaxLive),
    llmsTxtMaxServices: int("LLMS_TXT_MAX_SERVICES", defaults.llmsTxtMaxServices),
    requestTimeoutMs: int("REQUEST_TIMEOUT_MS", defaults.requestTimeoutMs),
    headersTimeoutMs: int("HEADERS_TIMEOUT_MS", defaults.headersTimeoutMs),
    keepAliveTimeoutMs: int("KEEP_ALIVE_TIMEOUT_MS", defaults.keepAliveTimeoutMs),
    sponsorKey,
    sponsorGasBudgetMax: int("SPONSOR_GAS_BUDGET_MAX", defaults.sponsorGasBudgetMax),
    sponsorPerOwnerPerMinute: int("SPONSOR_PER_OWNER_PER_MINUTE", defaults.sponsorPerOwnerPerMinute),
    sponsorOwnerGasPerDay: int("SPONSOR_OWNER_GAS_PER_DAY", defaults.sponsorOwnerGasPerDay),
    sponsorNewcomerGasPerDay: int("SPONSOR_NEWCOMER_GAS_PER_DAY", defaults.sponsorNewcomerGasPerDay),
    sponsorGasPerMinute: int("SPONSOR_GAS_PER_MINUTE", defaults.sponsorGasPerMinute),
    sponsorNewcomerGasPerMinute: int("SPONSOR_NEWCOMER_GAS_PER_MINUTE", defaults.sponsorNewcomerGasPerMinute),
    sponsorPaymentRequestsPerPayerPerMinute: int("SPONSOR_PAYMENT_REQUESTS_PER_PAYER_PER_MINUTE", defaults.sponsorPaymentRequestsPerPayerPerMinute),
    sponsorPaymentGasPerMinute: int("SPONSOR_PAYMENT_GAS_PER_MINUTE", defaults.sponsorPaymentGasPerMinute),
    sponsorPaymentGasPerGrantOwnerPerDay: int("SPONSOR_PAYMENT_GAS_PER_GRANT_OWNER_PER_DAY", defaults.sponsorPaymentGasPerGrantOwnerPerDay),
    sponsorPaymentGasPerPayerPerDay: int("SPONSOR_PAYMENT_GAS_PER_PAYER_PER_DAY", defaults.sponsorPaymentGasPerPayerPerDay),
    sponsorReservationMs: int("SPONSOR_RESERVATION_MS", defaults.sponsorReservationMs),
    sponsorPoolCoins: int("SPONSOR_POOL_COINS", defaults.sponsorPoolCoins),
    sponsorCoinMist: int("SPONSOR_COIN_MIST", defaults.sponsorCoinMist),
    sponsorBalanceFloorMist: int("SPONSOR_BALANCE_FLOOR_MIST", defaults.sponsorBalanceFloorMist),
    mcpMaxSessions: int("MCP_MAX_SESSIONS", defaults.mcpMaxSessions),
    mcpSessionsPerClient: int("MCP_SESSIONS_PER_CLIENT", defaults.mcpSessionsPerClient),
    mcpSessionIdleMs: int("MCP_SESSION_IDLE_MS", defaults.mcpSessionIdleMs),
    chain: chainConfig
  }).pipe(Config.flatMap(Result.match({
    // Every problem at once, so one restart finds them all; main.ts prints one line each.
    onFailure: (problems) => refuse(problems.map((problem) => problem.message).join("\n"), new ConfigProblems(problems)),
    onSuccess: ({ chain, ...config }) => Config.succeed<AppConfigShape>({ ...config, ...chain })
  })))

  static readonly layer = (config: AppConfigShape) => Layer.succeed(AppConfig, AppConfig.of(config))
}
