import type { Signer } from "@mysten/sui/cryptography"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"

/** A gas coin the signer owns, as a transaction names it. */
export interface GasCoin {
  readonly objectId: string
  readonly version: string
  readonly digest: string
  readonly balance: bigint
}

/** What a wallet needs from a ledger to complete, sign and submit a kind. */
export interface LedgerAccess<E> {
  readonly referenceGasPrice: bigint
  gasCoins(owner: string): Effect.Effect<ReadonlyArray<GasCoin>, E>
  /** Executes signed bytes; `status` and `error` tell whether the Move call aborted. */
  submit(txBytes: string, signatures: ReadonlyArray<string>): Effect.Effect<Executed, E>
}

export interface Executed {
  readonly digest: string
  readonly status: "success" | "failure"
  readonly error: string | null
}

export const GAS_BUDGET = 10_000_000n

/**
 * Turns an unsigned transaction kind into full transaction data (sender, gas
 * from the ledger), signs it with the wallet's key, submits it and returns
 * what the ledger did. The key never leaves this function.
 */
export const executeKind = <E>(txKindBytes: string, signer: Signer, ledger: LedgerAccess<E>) =>
  Effect.gen(function*() {
    const sender = signer.toSuiAddress()
    const coins = yield* ledger.gasCoins(sender)
    const gas = [...coins].sort((a, b) => (a.balance > b.balance ? -1 : 1))[0]
    if (gas === undefined) return yield* Effect.die(new Error(`${sender} has no SUI to pay gas with`))
    const tx = Transaction.fromKind(fromBase64(txKindBytes))
    tx.setSender(sender)
    tx.setGasOwner(sender)
    tx.setGasPayment([{ objectId: gas.objectId, version: gas.version, digest: gas.digest }])
    tx.setGasPrice(ledger.referenceGasPrice)
    tx.setGasBudget(gas.balance < GAS_BUDGET ? gas.balance : GAS_BUDGET)
    const bytes = yield* Effect.promise(() => tx.build())
    const { signature } = yield* Effect.promise(() => signer.signTransaction(bytes))
    return yield* ledger.submit(toBase64(bytes), [signature])
  })

/** Like `executeKind`, answering only the digest (a failed transaction has one too). */
export const signAndExecuteKind = <E>(txKindBytes: string, signer: Signer, ledger: LedgerAccess<E>) =>
  Effect.map(executeKind(txKindBytes, signer, ledger), (executed) => executed.digest)
