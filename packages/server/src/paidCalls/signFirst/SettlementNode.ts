import { Clock, Context, Data, Effect, Layer, Option } from "effect"
import { TransactionError } from "@mysten/sui/client"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import { Unavailable } from "@gateway/domain/Errors"
import type { SimulatedPayment } from "@gateway/domain/payment/SignedPaymentCheck"
import type { GasUsed } from "@gateway/domain/sponsorship/GasBudget"
import { timedChainCall } from "@gateway/chain/ChainMetrics"
import { SuiNode } from "../../sui/SuiNode.ts"
import { chainDown, gasOf, messageOf, refusedByNode } from "../../sui/NodeAnswers.ts"

/** What executing a signed payment did. */
export interface Settled {
  readonly digest: string
  readonly success: boolean
  /** Why the chain failed it; null on success. */
  readonly error: string | null
  readonly gas: GasUsed
}

/** The node refused the transaction before running it (stale gas, expired epoch, bad signature): nothing ran. */
export class SettleRefused extends Data.TaggedError("SettleRefused")<{ readonly reason: string }> {}

/** How long the epoch read is reused: an epoch lasts a day on Sui; a settlement re-reads it anyway by executing. */
const EPOCH_CACHE_MS = 5_000

/** The node's current epoch, read afresh. */
const epochOf = (client: SuiNode["Service"]) =>
  Effect.tryPromise({
    try: () => client.ledgerService.getEpoch({ readMask: { paths: ["epoch"] } }).response,
    catch: chainDown
  }).pipe(
    timedChainCall("getEpoch"),
    Effect.flatMap((response) =>
      response.epoch?.epoch === undefined ? Effect.fail(chainDown("the node did not say its epoch")) : Effect.succeed(response.epoch.epoch)
    )
  )

/**
 * The chain as sign-first settlement reads and writes it: the current epoch, a simulation with the events and
 * balance changes the verifier judges, whether a digest was executed, and execution. Execution answers with the
 * transaction's effects, which is finality on Sui: nothing waits for a checkpoint.
 */
export class SettlementNode extends Context.Service<SettlementNode, {
  readonly currentEpoch: Effect.Effect<bigint, Unavailable>
  /** The current epoch, read afresh when `named` (a transaction's epoch) is later than the one remembered. */
  epochNaming(named: bigint): Effect.Effect<bigint, Unavailable>
  simulate(txBytes: Uint8Array): Effect.Effect<SimulatedPayment, Unavailable>
  /** The executed transaction's outcome; None when the chain does not know the digest. */
  executed(digest: string): Effect.Effect<Option.Option<{ readonly success: boolean; readonly error: string | null }>, Unavailable>
  execute(txBytes: Uint8Array, signatures: ReadonlyArray<string>): Effect.Effect<Settled, SettleRefused | Unavailable>
}>()("@gateway/server/SettlementNode") {
  static readonly layer = Layer.effect(
    SettlementNode,
    Effect.gen(function*() {
      const client = yield* SuiNode
      let cached: { readonly epoch: bigint; readonly atMs: number } | undefined

      const readEpoch = epochOf(client)

      const epochAtLeast = (named: bigint) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          if (cached !== undefined && now - cached.atMs < EPOCH_CACHE_MS && named <= cached.epoch) return cached.epoch
          const epoch = yield* readEpoch
          cached = { epoch, atMs: now }
          return epoch
        }).pipe(Effect.withSpan("SettlementNode.currentEpoch"))
      const currentEpoch = epochAtLeast(0n)

      const simulate = (txBytes: Uint8Array) =>
        Effect.tryPromise({
          try: () =>
            client.core.simulateTransaction({ transaction: txBytes, include: { effects: true, events: true, balanceChanges: true } }),
          catch: (cause) => cause
        }).pipe(
          timedChainCall("simulateTransaction"),
          Effect.map((result): SimulatedPayment => {
            const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
            return {
              success: tx.status.success,
              error: tx.status.success ? null : describeExecutionError(tx.status.error),
              events: (tx.events ?? []).map((e) => ({ type: e.eventType, sender: normalizeSuiAddress(e.sender), parsedJson: e.json, bcs: toBase64(e.bcs) })),
              balanceChanges: tx.balanceChanges ?? []
            }
          }),
          // A transaction the node will not even run (stale object versions, a spent coin) would fail to execute too.
          Effect.catch((cause) =>
            refusedByNode(cause)
              ? Effect.succeed<SimulatedPayment>({ success: false, error: messageOf(cause), events: [], balanceChanges: [] })
              : Effect.fail(chainDown(cause))
          ),
          Effect.withSpan("SettlementNode.simulate")
        )

      const executed = (digest: string) =>
        Effect.tryPromise({ try: () => client.core.getTransaction({ digest }), catch: (cause) => cause }).pipe(
          timedChainCall("getTransaction"),
          Effect.map((result) => {
            const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
            return Option.some({ success: tx.status.success, error: tx.status.success ? null : describeExecutionError(tx.status.error) })
          }),
          Effect.catch((cause) =>
            cause instanceof TransactionError && cause.reason === "notFound" ? Effect.succeed(Option.none()) : Effect.fail(chainDown(cause))
          ),
          Effect.withSpan("SettlementNode.executed", { attributes: { digest } })
        )

      const execute = (txBytes: Uint8Array, signatures: ReadonlyArray<string>) =>
        Effect.tryPromise({
          try: () => client.core.executeTransaction({ transaction: txBytes, signatures: [...signatures], include: { effects: true } }),
          catch: (cause) => (refusedByNode(cause) ? new SettleRefused({ reason: messageOf(cause) }) : chainDown(cause))
        }).pipe(
          timedChainCall("executeTransaction"),
          Effect.map((result): Settled => {
            const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
            return {
              digest: tx.digest,
              success: tx.status.success,
              error: tx.status.success ? null : describeExecutionError(tx.status.error),
              gas: gasOf(tx.effects)
            }
          }),
          Effect.withSpan("SettlementNode.execute")
        )

      return SettlementNode.of({ currentEpoch, epochNaming: epochAtLeast, simulate, executed, execute })
    })
  )
}
