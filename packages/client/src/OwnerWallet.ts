import { type ClientWithCoreApi, SimulationError } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Effect, Schema } from "effect"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"

/** What the chain did with a signed transaction: a failed one has a digest too, and its gas was charged. */
export interface Executed {
  readonly digest: string
  readonly status: "success" | "failure"
  /** Why it failed, as `describeExecutionError` renders it; null on success. */
  readonly error: string | null
}

/** The dry run that prices gas failed, so nothing was signed or submitted: `reason` says why. */
export class KindRefused extends Schema.TaggedError<KindRefused>()("KindRefused", { reason: Schema.String }) {}

/** The ledger could not be reached, or refused the transaction before executing it. */
export class LedgerUnreachable extends Schema.TaggedError<LedgerUnreachable>()("LedgerUnreachable", { reason: Schema.String }) {}

/** A gas coin named by the caller, for callers that run transactions of one sender concurrently. */
export interface GasCoinRef {
  readonly objectId: string
  readonly version: string
  readonly digest: string
}

export interface GasOptions {
  /** Pay with these coins instead of every SUI coin the sender has. */
  readonly coins?: ReadonlyArray<GasCoinRef>
  /** Skip the dry run and spend at most this: a kind that aborts then fails on chain, with a digest, as it would from any wallet. */
  readonly budget?: bigint
}

const reasonOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/**
 * Completes an unsigned transaction kind with its sender, lets the client
 * price and pay gas (a SimulateTransaction dry run sets the budget, the
 * sender's SUI coins pay, unless `gas` says otherwise), signs it with the
 * wallet's key and executes it. The key never leaves this function.
 */
export const executeKind = (txKindBytes: string, signer: Signer, client: ClientWithCoreApi, gas: GasOptions = {}) =>
  Effect.tryPromise({
    try: async () => {
      const sender = signer.toSuiAddress()
      const transaction = Transaction.fromKind(fromBase64(txKindBytes))
      transaction.setSender(sender)
      if (gas.coins !== undefined) transaction.setGasPayment([...gas.coins])
      if (gas.budget !== undefined) {
        // The SDK simulates whenever price, budget or payment is missing; all three set, it builds offline and the kind runs as is.
        transaction.setGasBudget(gas.budget)
        transaction.setGasPrice((await client.core.getReferenceGasPrice()).referenceGasPrice)
        if (gas.coins === undefined) {
          const { objects } = await client.core.listCoins({ owner: sender })
          transaction.setGasPayment(objects.map(({ objectId, version, digest }) => ({ objectId, version, digest })))
        }
      }
      return client.core.signAndExecuteTransaction({ transaction, signer, include: { effects: true } })
    },
    catch: (cause) =>
      cause instanceof SimulationError
        ? new KindRefused({ reason: cause.executionError === undefined ? cause.message : describeExecutionError(cause.executionError) })
        : new LedgerUnreachable({ reason: reasonOf(cause) })
  }).pipe(
    Effect.map((result): Executed => {
      const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
      return tx.status.success
        ? { digest: tx.digest, status: "success", error: null }
        : { digest: tx.digest, status: "failure", error: describeExecutionError(tx.status.error) }
    }),
    Effect.withSpan("OwnerWallet.executeKind")
  )

/** Waits until the ledger serves the transaction, so what follows reads it; its checkpoint may still be pending. */
export const waitFor = (client: ClientWithCoreApi, digest: string) =>
  Effect.tryPromise({
    try: () => client.core.waitForTransaction({ digest }),
    catch: (cause) => new LedgerUnreachable({ reason: reasonOf(cause) })
  }).pipe(Effect.asVoid)

/** `executeKind`, then `waitFor`, answering only the digest (a failed transaction has one too). */
export const signAndExecuteKind = (txKindBytes: string, signer: Signer, client: ClientWithCoreApi) =>
  Effect.tap(Effect.map(executeKind(txKindBytes, signer, client), (executed) => executed.digest), (digest) => waitFor(client, digest))
