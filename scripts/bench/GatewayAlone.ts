import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { Effect } from "effect"
import { DEFAULT_DATABASE_URL, freshSchemaUrl } from "./FreshSchema.ts"
import { startLedger } from "./LedgerProcess.ts"
import { paidCalls } from "./PaidCalls.ts"
import { sessionCalls } from "./SessionCalls.ts"
import { step } from "./Progress.ts"
import { startGateway } from "./ServerProcess.ts"
import { signerLifecycle } from "./SignerLifecycle.ts"
import { makeWallets } from "./Wallets.ts"

export type AloneStore = "PostgreSQL" | "PGlite"

/** The faucet's gifts (10 SUI each) the gateway's gas sponsor starts with. */
const SPONSOR_FAUCET_GIFTS = 3

/** The gateway's store: PostgreSQL (DATABASE_URL, or the local default) in a schema of its own, or in-memory PGlite. */
const storeEnv = (store: AloneStore) =>
  store === "PostgreSQL"
    ? Effect.map(freshSchemaUrl(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL), (url) => ({ DATABASE_URL: url, DATA_DIR: undefined }))
    : Effect.succeed({ DATABASE_URL: undefined, DATA_DIR: "memory://" })

/**
 * The gateway measured alone: the bundle `npm start` runs, in live mode in
 * its own process, on `store`, against `npm run ledger` in another process
 * (its journal in a file, checkpointing every 20 ms), with the owners' and
 * agents' wallets in this one. Its gas sponsor (`SPONSOR_KEY`, funded from the
 * ledger's faucet before it starts) runs the gas station sign-first payments
 * use; the owners pay their own gas. Runs the signer lifecycle, then the paid
 * calls to `upstream`, each with the CPU every process used per operation.
 * `gatewayNodeArgs` go to the gateway's Node (a profiler's flags).
 */
export const gatewayAlone = (store: AloneStore, upstream: { readonly url: string }, gatewayNodeArgs: ReadonlyArray<string> = []) =>
  Effect.scoped(Effect.gen(function*() {
    yield* step(`the gateway alone on ${store}: starting the ledger and the gateway`)
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "bench-ledger-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const ledger = yield* Effect.acquireRelease(
      Effect.promise(() => startLedger({ LEDGER_DATA_DIR: dataDir, LEDGER_CHECKPOINT_MS: "20" })),
      (running) => Effect.promise(running.stop)
    )
    const database = yield* storeEnv(store)
    // What the sponsor's pool is split from: 16 coins of 1 SUI and what its upkeep keeps aside.
    const sponsor = new Ed25519Keypair()
    for (let i = 0; i < SPONSOR_FAUCET_GIFTS; i++) {
      yield* Effect.promise(() => requestSuiFromFaucetV2({ host: ledger.origin, recipient: sponsor.toSuiAddress() }))
    }
    const gateway = yield* Effect.acquireRelease(
      Effect.promise(() =>
        startGateway({
          ...ledger.gatewayEnv,
          ...database,
          // Live mode keeps sellers' credentials under a key of the operator's: any will do for one run.
          CREDENTIALS_KEY: randomBytes(32).toString("base64"),
          UPSTREAM_ALLOW_HOSTS: new URL(upstream.url).host,
          // Every owner, seller and agent signs in and pays from loopback, one client address.
          SIGN_IN_PER_MINUTE: "1000000",
          SIGN_IN_CHALLENGES_PER_MINUTE: "1000000",
          PAYMENT_CHALLENGES_PER_MINUTE: "1000000000",
          PAYMENT_FAILURES_PER_MINUTE: "1000000",
          // One agent pays every sign-first call with the gas station: its payer and owner budgets must hold them all.
          SPONSOR_KEY: sponsor.getSecretKey(),
          SPONSOR_PAYMENT_REQUESTS_PER_PAYER_PER_MINUTE: "1000000",
          SPONSOR_PAYMENT_GAS_PER_MINUTE: "1000000000000000",
          SPONSOR_PAYMENT_GAS_PER_GRANT_OWNER_PER_DAY: "1000000000000000",
          SPONSOR_PAYMENT_GAS_PER_PAYER_PER_DAY: "1000000000000000"
        }, gatewayNodeArgs)
      ),
      (running) => Effect.promise(running.stop)
    )
    const pids = { gateway: gateway.process.pid ?? Number.NaN, ledger: ledger.process.pid ?? Number.NaN }
    const wallets = yield* makeWallets(gateway.url, ledger.origin)
    const lifecycle = yield* signerLifecycle(wallets, pids)
    const paid = yield* paidCalls(wallets, pids, upstream)
    const sessions = yield* sessionCalls(wallets, pids, upstream)
    return { store, lifecycle, paid, sessions }
  }))

export type AloneFigures = Effect.Success<ReturnType<typeof gatewayAlone>>
