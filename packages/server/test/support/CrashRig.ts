import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { Context, Effect, Layer } from "effect"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import { FetchLayer, type withOwner } from "@gateway/client"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type { ServiceId } from "@gateway/domain/Ids"
import type { PaymentItem } from "@gateway/domain/PaymentHistory"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { freshSchemaUrl } from "../../../../scripts/bench/FreshSchema.ts"
import { type RunningLedger, startLedger } from "../../../../scripts/bench/LedgerProcess.ts"
import { freePort } from "../../../../scripts/bench/ServerProcess.ts"
import { payingAgent } from "../../../../scripts/bench/PayingAgent.ts"
import { makeWallets, type Wallets } from "../../../../scripts/bench/Wallets.ts"
import { exactHeader, type SignedPayment } from "./SignByHand.ts"

/**
 * Crash tests with real processes: `npm run ledger`'s node in one process, the gateway (its source, live mode) in
 * another on a store that outlives it (PGlite in a folder, or a fresh PostgreSQL schema when TEST_DATABASE_URL is
 * set), and in this process a loopback seller the test steers, a tap between the gateway and the ledger that sees
 * every gRPC call the gateway makes, and the owner's, seller's and agent's wallets.
 */

const GATEWAY_MAIN = join(import.meta.dirname, "../../src/main.ts")

/** Sign-first recovery releases a forward unanswered for 4 upstream timeouts: a short timeout keeps that bound short. */
export const UPSTREAM_TIMEOUT_MS = 1_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (!alive(child)) return resolve()
    child.once("exit", () => resolve())
  })

/** Ends a child however it is: resumed first (a stopped process takes no SIGTERM), asked, then killed. */
const endChild = async (child: ChildProcess, graceful: () => Promise<void>) => {
  if (!alive(child)) return
  child.kill("SIGCONT")
  await Promise.race([graceful(), sleep(5_000)])
  if (alive(child)) {
    child.kill("SIGKILL")
    await exited(child)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The tap: the gateway's SUI_GRPC_URL, relaying every call to the ledger and noting it.

export interface TapCall {
  /** The gRPC method, e.g. `GetTransaction`, `SimulateTransaction`, `ExecuteTransaction`. */
  readonly method: string
  readonly at: number
}

export interface ChainTap {
  /** Origin to give the gateway (its SUI_GRPC_URL is this plus `/sui`). */
  readonly origin: string
  /** Every call the gateway made, in order. */
  readonly calls: Array<TapCall>
  /**
   * When set, the next `ExecuteTransaction` is relayed to the ledger and its whole answer read, then this runs
   * (and is cleared) before anything is relayed back: the transaction has executed and the gateway does not know.
   */
  afterExecute: (() => Promise<void>) | undefined
  readonly close: () => Promise<void>
}

const startTap = (ledgerOrigin: string) =>
  new Promise<ChainTap>((resolve) => {
    const target = new URL(ledgerOrigin)
    const tap: { -readonly [K in keyof ChainTap]: ChainTap[K] } = {
      origin: "",
      calls: [],
      afterExecute: undefined,
      close: () => Promise.resolve()
    }
    const relay = (req: IncomingMessage, res: ServerResponse) => {
      const method = (req.url ?? "").split("/").pop() ?? ""
      tap.calls.push({ method, at: Date.now() })
      const hook = method === "ExecuteTransaction" ? tap.afterExecute : undefined
      if (hook !== undefined) tap.afterExecute = undefined
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          if (hook === undefined) {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            return
          }
          const chunks: Array<Buffer> = []
          answer.on("data", (chunk: Buffer) => chunks.push(chunk))
          answer.on("end", () => {
            void hook().then(() => {
              if (res.destroyed) return
              res.writeHead(answer.statusCode ?? 502, answer.headers)
              res.end(Buffer.concat(chunks))
            })
          })
        }
      )
      upstream.on("error", () => {
        if (!res.headersSent) res.writeHead(502).end()
        else res.destroy()
      })
      // The gateway died or hung up: the call to the ledger goes too.
      res.on("close", () => {
        if (!res.writableFinished) upstream.destroy()
      })
      req.pipe(upstream)
    }
    const server = createServer(relay)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      tap.origin = `http://127.0.0.1:${port}`
      tap.close = () => closeServer(server)
      resolve(tap)
    })
  })

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

// ---------------------------------------------------------------------------------------------------------------
// The seller: answers each forwarded call as the test says, counting calls per payment digest.

/** What the seller does with one forwarded call: `answer` writes its 200 (it may be called never, or late). */
export type SellerAct = (answer: () => void, request: IncomingMessage) => void

export interface CrashSeller {
  readonly url: string
  /** Forwarded calls per payment digest (the gateway sends it as `idempotency-key`). */
  readonly calls: Map<string, number>
  /** What the next calls do; answering at once when unset. */
  act: SellerAct | undefined
  readonly close: () => Promise<void>
}

const startSeller = () =>
  new Promise<CrashSeller>((resolve) => {
    let served = 0
    const seller: { -readonly [K in keyof CrashSeller]: CrashSeller[K] } = {
      url: "",
      calls: new Map(),
      act: undefined,
      close: () => Promise.resolve()
    }
    const server = createServer((req, res) => {
      const digest = String(req.headers["idempotency-key"] ?? "")
      seller.calls.set(digest, (seller.calls.get(digest) ?? 0) + 1)
      served += 1
      const body = JSON.stringify({ answer: 42, call: served, digest })
      const answer = () => {
        if (res.destroyed || res.writableEnded) return
        res.writeHead(200, { "content-type": "application/json" })
        res.end(body)
      }
      const act = seller.act
      if (act === undefined) answer()
      else act(answer, req)
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      seller.url = `http://127.0.0.1:${port}/x`
      seller.close = () => closeServer(server)
      resolve(seller)
    })
  })

// ---------------------------------------------------------------------------------------------------------------
// The gateway: its source, in its own process, always on the same port and store.

export interface GatewayProcess {
  readonly child: ChildProcess
  readonly pid: number
  readonly startupMs: number
}

const launchGateway = async (env: Record<string, string | undefined>, port: number, logFile: string): Promise<GatewayProcess> => {
  const log = openSync(logFile, "a")
  const started = performance.now()
  const child = spawn(process.execPath, ["--conditions=@gateway/source", GATEWAY_MAIN], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", log, log]
  })
  closeSync(log)
  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (!alive(child)) break
    if (await fetch(`${url}/health`).then((r) => r.status === 200, () => false)) {
      return { child, pid: child.pid ?? Number.NaN, startupMs: performance.now() - started }
    }
    await sleep(50)
  }
  child.kill("SIGKILL")
  throw new Error(`the gateway did not start (exit ${child.exitCode}); its log:\n${tail(logFile)}`)
}

const tail = (file: string) => {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-40).join("\n")
  } catch {
    return "(no log)"
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The rig, built once per file.

export interface Paying {
  readonly serviceId: ServiceId
  readonly resourceUrl: string
  readonly payTo: string
  readonly price: bigint
  readonly agentKey: Ed25519Keypair
  readonly manifest: ConnectionManifest
  readonly asSeller: ReturnType<typeof withOwner>
}

export class CrashRig extends Context.Service<CrashRig, {
  readonly ledger: RunningLedger
  readonly tap: ChainTap
  readonly seller: CrashSeller
  readonly wallets: Wallets
  readonly gatewayUrl: string
  readonly store: "PGlite" | "PostgreSQL"
  readonly paying: Paying
  /** The running gateway; fails when none runs. */
  readonly gateway: () => GatewayProcess
  readonly gatewayRuns: () => boolean
  /** Starts a gateway on the store (the one running, if any, must be dead). */
  readonly startGateway: () => Promise<GatewayProcess>
  /** SIGKILLs the gateway (stopped or not) and waits until it is gone. */
  readonly killGateway: () => Promise<void>
  /** The last lines the gateways logged. */
  readonly logTail: () => string
}>()("@gateway/server/test/CrashRig") {
  static readonly layer = Layer.effect(
    CrashRig,
    Effect.gen(function*() {
      const dir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "sign-first-crash-"))),
        (path) => Effect.sync(() => rmSync(path, { recursive: true, force: true }))
      )
      const ledgerDir = join(dir, "ledger")
      const dataDir = join(dir, "gateway")
      const logFile = join(dir, "gateway.log")
      const ledger = yield* Effect.acquireRelease(
        Effect.promise(() => startLedger({ LEDGER_DATA_DIR: ledgerDir, LEDGER_CHECKPOINT_MS: "20" })),
        (running) => Effect.promise(() => endChild(running.process, running.stop))
      )
      const tap = yield* Effect.acquireRelease(Effect.promise(() => startTap(ledger.origin)), (t) => Effect.promise(t.close))
      const seller = yield* Effect.acquireRelease(Effect.promise(startSeller), (s) => Effect.promise(s.close))
      const testDatabase = process.env["TEST_DATABASE_URL"]
      const storeEnv = testDatabase === undefined
        ? { DATA_DIR: dataDir, DATABASE_URL: undefined }
        : { DATA_DIR: undefined, DATABASE_URL: yield* freshSchemaUrl(testDatabase) }
      const port = yield* Effect.promise(freePort)
      const env = {
        ...ledger.gatewayEnv,
        SUI_GRPC_URL: `${tap.origin}/sui`,
        ...storeEnv,
        // Live mode keeps sellers' credentials under the operator's key: one for every run on this store.
        CREDENTIALS_KEY: randomBytes(32).toString("base64"),
        UPSTREAM_ALLOW_HOSTS: new URL(seller.url).host,
        UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
        // Everyone signs in and pays from loopback, and the test presents pending payments again and again.
        SIGN_IN_PER_MINUTE: "1000000",
        SIGN_IN_CHALLENGES_PER_MINUTE: "1000000",
        PAYMENT_CHALLENGES_PER_MINUTE: "1000000000",
        PAYMENT_FAILURES_PER_MINUTE: "1000000"
      }
      let current: GatewayProcess | undefined
      const killGateway = async () => {
        const gateway = current
        current = undefined
        if (gateway === undefined || !alive(gateway.child)) return
        const gone = exited(gateway.child)
        gateway.child.kill("SIGKILL")
        await gone
      }
      const startGateway = async () => {
        if (current !== undefined && alive(current.child)) throw new Error("a gateway runs already")
        current = await launchGateway(env, port, logFile)
        return current
      }
      // Whatever the test did last, no process of it outlives the file, and none is left stopped.
      const onExit = () => {
        for (const child of [current?.child, ledger.process]) {
          if (child !== undefined && alive(child)) {
            child.kill("SIGCONT")
            child.kill("SIGKILL")
          }
        }
      }
      process.once("exit", onExit)
      yield* Effect.addFinalizer(() => Effect.sync(() => process.removeListener("exit", onExit)))
      yield* Effect.acquireRelease(Effect.promise(startGateway), () =>
        Effect.promise(async () => {
          const gateway = current
          current = undefined
          if (gateway !== undefined) await endChild(gateway.child, () => {
            const gone = exited(gateway.child)
            gateway.child.kill("SIGTERM")
            return gone
          })
        }))
      const gatewayUrl = `http://127.0.0.1:${port}`
      const wallets = yield* makeWallets(gatewayUrl, ledger.origin)
      const paying = yield* crashAgent(wallets, seller.url)
      return CrashRig.of({
        ledger,
        tap,
        seller,
        wallets,
        gatewayUrl,
        store: testDatabase === undefined ? "PGlite" : "PostgreSQL",
        paying,
        gateway: () => {
          if (current === undefined || !alive(current.child)) throw new Error("no gateway runs")
          return current
        },
        gatewayRuns: () => current !== undefined && alive(current.child),
        startGateway,
        killGateway,
        logTail: () => tail(logFile)
      })
    })
  ).pipe(Layer.provide(FetchLayer))
}

/**
 * A funded owner, a live service at `upstreamUrl` from a seller of its own, and an agent with gas (the faucet's)
 * and a finalized grant, all over HTTP as in the bench's paid calls (scripts/bench/PaidCalls.ts).
 */
const crashAgent = (wallets: Wallets, upstreamUrl: string) =>
  Effect.map(payingAgent(wallets, upstreamUrl, "crash"), ({ entry, payTo, agentKey, manifest, asSeller }): Paying => ({
    serviceId: entry.id,
    resourceUrl: entry.resourceUrl,
    payTo,
    price: BigInt(entry.price),
    agentKey,
    manifest,
    asSeller
  }))

// ---------------------------------------------------------------------------------------------------------------
// The agent's side and the chain's word.

/** A fresh 402's first offer, which must be `exact`. */
export const exactOffer = (paying: Paying) =>
  Effect.promise(async () => {
    const header = await fetch(paying.resourceUrl).then((r) => r.headers.get("payment-required") ?? "")
    const offer = decodePaymentRequiredHeader(header).accepts[0]
    if (offer?.scheme !== "exact") throw new Error(`the first offer is not exact: ${header}`)
    return offer
  })

/**
 * The agent signs, without executing, `pay` through its grant for `offer` (memo = the UTF-8 of the offer's nonce),
 * gas from its own coins, expiring with epoch 0 (the local ledger's epoch never moves).
 */
export const signExact = (wallets: Wallets, paying: Paying, offer: PaymentRequirements) =>
  Effect.promise(async (): Promise<SignedPayment> => {
    const { manifest, agentKey } = paying
    const g = manifest.grants[0]
    if (g === undefined) throw new Error("no grant in the manifest")
    const { object } = await wallets.sui.core.getObject({ objectId: manifest.registryId })
    if (object.owner.$kind !== "Shared") throw new Error("the registry is not shared")
    const kind = await Kinds.pay({ originalId: manifest.packageId, publishedAt: manifest.publishedAt, registryId: manifest.registryId }, {
      sender: agentKey.toSuiAddress(),
      registry: { objectId: manifest.registryId, initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) },
      grant: { objectId: g.grantObjectId, initialSharedVersion: BigInt(g.grantInitialSharedVersion) },
      pool: { objectId: g.pool, initialSharedVersion: BigInt(g.poolInitialSharedVersion) },
      coinType: g.coinType,
      amount: BigInt(offer.amount),
      recipient: offer.payTo,
      memo: memoOf(String(offer.extra?.["nonce"]))
    })
    const transaction = Transaction.fromKind(fromBase64(kind.txKindBytes))
    transaction.setSender(agentKey.toSuiAddress())
    transaction.setGasBudget(50_000_000n)
    transaction.setExpiration({ Epoch: 0 })
    const bytes = await transaction.build({ client: wallets.sui })
    const { signature } = await agentKey.signTransaction(bytes)
    return { transaction: toBase64(bytes), signature, digest: TransactionDataBuilder.getDigestFromBytes(bytes) }
  })

/** What presenting a payment came to: the gateway's answer, or the connection lost (the gateway died meanwhile). */
export type Presented =
  | {
    readonly _tag: "Answered"
    readonly status: number
    readonly body: Record<string, unknown>
    /** The decoded PAYMENT-RESPONSE, when there is one. */
    readonly receipt: { readonly success: boolean; readonly transaction: string } | undefined
  }
  | { readonly _tag: "Lost"; readonly error: string }

/** Presents `signed` for `offer` (`PAYMENT-SIGNATURE`), as a promise that never rejects. */
export const presentRaw = async (paying: Paying, offer: PaymentRequirements, signed: SignedPayment): Promise<Presented> => {
  try {
    const response = await fetch(paying.resourceUrl, { headers: { "payment-signature": exactHeader(offer, signed) } })
    const text = await response.text()
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      body = { text }
    }
    const header = response.headers.get("payment-response")
    return { _tag: "Answered", status: response.status, body, receipt: header === null ? undefined : decodePaymentResponseHeader(header) }
  } catch (error) {
    return { _tag: "Lost", error: String(error) }
  }
}

/** Whether the chain executed `digest` (successfully or not): the ledger's gRPC `getTransaction`. */
export const executedOnChain = (wallets: Wallets, digest: string) =>
  Effect.promise(() =>
    wallets.sui.core.getTransaction({ digest }).then(
      (result) => ({ executed: true as const, success: result.$kind === "Transaction" ? result.Transaction.status.success : false }),
      () => ({ executed: false as const, success: false })
    )
  )

/** Every payment of the service as its seller lists them (`GET /v1/services/{id}/payments`). */
export const sellerListing = (wallets: Wallets, paying: Paying) =>
  Effect.gen(function*() {
    const all: Array<PaymentItem> = []
    let cursor: string | null = null
    do {
      const query: { cursor?: string } = cursor === null ? {} : { cursor }
      const page: { readonly payments: ReadonlyArray<PaymentItem>; readonly nextCursor: string | null } = yield* wallets.api.sellers.payments({
        params: { id: paying.serviceId },
        query
      }).pipe(paying.asSeller)
      all.push(...page.payments)
      cursor = page.nextCursor
    } while (cursor !== null)
    return all
  })

/** The payee's SUI balance, as the chain says. */
export const balanceOf = (wallets: Wallets, owner: string) =>
  Effect.promise(() => wallets.sui.core.getBalance({ owner }).then((b) => BigInt(b.balance.balance)))
