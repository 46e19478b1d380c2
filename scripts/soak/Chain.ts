import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import type { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeStructTag } from "@mysten/sui/utils"
import { Data, Effect } from "effect"
import { eventType } from "@gateway/domain/chain/SpendAccountModule"
import { startLedger } from "../bench/LedgerProcess.ts"
import { type ChainAudit, type MadePayment, parsePaymentMade } from "../load/Consistency.ts"

/** The ledger node did not answer the auditor. */
export class AuditFailed extends Data.TaggedError("AuditFailed")<{ readonly reason: string }> {}

/** Every step waits for its checkpoint: a short interval keeps the flows, not the ledger, the bound (as `npm run load`). */
const CHECKPOINT_MS = "20"
/** Faucet gifts (10 SUI each) the shared gas sponsor starts with: a minute's payments at a dozen lanes use a fraction. */
const SPONSOR_FAUCET_GIFTS = 3
/** Transactions executed but not yet in a checkpoint are in the next one, every 20 ms: this is many intervals. */
const SETTLE_MS = 500
/** Checkpoints the auditor reads at once. */
const READ_CONCURRENCY = 8

/**
 * The chain of the run: `npm run ledger`'s entry in a process of its own (journal in a temporary folder,
 * removed with the scope), and a gas sponsor funded from its faucet whose key every replica shares.
 */
export const soakLedger = Effect.gen(function*() {
  const dataDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "soak-ledger-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
  const ledger = yield* Effect.acquireRelease(
    Effect.promise(() => startLedger({ LEDGER_DATA_DIR: dataDir, LEDGER_CHECKPOINT_MS: CHECKPOINT_MS })),
    (running) => Effect.promise(running.stop)
  )
  const sponsor = new Ed25519Keypair()
  for (let i = 0; i < SPONSOR_FAUCET_GIFTS; i++) {
    yield* Effect.promise(() => requestSuiFromFaucetV2({ host: ledger.origin, recipient: sponsor.toSuiAddress() }))
  }
  return { ledger, sponsorKey: sponsor.getSecretKey() }
})

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new AuditFailed({ reason: `${what}: ${String(cause)}` }) })

/**
 * The consistency check's view of a ledger in another process, over its gRPC API as an indexer reads a
 * full node: every checkpoint from genesis to the latest, each transaction's events, the PaymentMade ones
 * parsed. Settling is waiting: a node apart makes its checkpoints on its own clock.
 */
export const grpcAudit = (sui: SuiGrpcClient, originalId: string): ChainAudit<AuditFailed> => {
  const paymentMade = normalizeStructTag(eventType(originalId, "PaymentMade"))
  const readMask = { paths: ["transactions.digest", "transactions.events"] }
  const checkpoint = (sequenceNumber: bigint) =>
    attempt(`checkpoint ${sequenceNumber}`, () => sui.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber }, readMask }).response)
  const paymentsIn = (sequenceNumber: bigint) =>
    Effect.map(checkpoint(sequenceNumber), ({ checkpoint: cp }) =>
      (cp?.transactions ?? []).flatMap((tx): Array<MadePayment> =>
        (tx.events?.events ?? []).flatMap((event) =>
          event.eventType !== undefined && normalizeStructTag(event.eventType) === paymentMade && event.contents?.value !== undefined && tx.digest !== undefined
            ? [parsePaymentMade(tx.digest, event.contents.value)]
            : [])))
  const paymentsMade = Effect.gen(function*() {
    const info = yield* attempt("service info", () => sui.ledgerService.getServiceInfo({}).response)
    const latest = info.checkpointHeight ?? 0n
    const sequences = Array.from({ length: Number(latest) + 1 }, (_, i) => BigInt(i))
    return (yield* Effect.forEach(sequences, paymentsIn, { concurrency: READ_CONCURRENCY })).flat()
  })
  return { originalId, settle: Effect.sleep(SETTLE_MS), paymentsMade }
}
