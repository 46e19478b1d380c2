import { normalizeSuiAddress } from "@mysten/sui/utils"
import { type SpendAccountPackage, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { accumulatorObjectId, type AddressBalanceChange, type AddressBalanceReader, netAddressBalanceChanges } from "./execute/AddressBalances.ts"
import { admit, type Admitted, Rejection } from "./execute/Admission.ts"
import { frameworkFundsCalls, isFrameworkFundsCall } from "./execute/FrameworkFunds.ts"
import { type CallMove, interpret, type Interpretation, type TransactionData, type Working } from "./execute/ProgrammableTransaction.ts"
import { spendAccountCalls } from "./execute/SpendAccountEntries.ts"
import type { Execution, ObjectChange, ObjectReader } from "./Execution.ts"
import { type LedgerObject, storageCost, withStorageRebate, withVersion } from "./LedgerObject.ts"

/** The share of an object's storage rebate a transaction that rewrites or deletes it gets back (Sui's `storage_rebate_rate`, 99%). */
const REBATE_BASIS_POINTS = 9_900n

export interface ExecuteInput {
  readonly pkg: SpendAccountPackage
  readonly data: TransactionData
  readonly digest: string
  readonly nowMs: bigint
  /** The current epoch, and its reference gas price. */
  readonly epoch: bigint
  readonly referenceGasPrice: bigint
  readonly objects: ObjectReader
  /** The address balances as they stand; none when not given. */
  readonly addressBalance?: AddressBalanceReader
  /** The chain a `ValidDuring` expiration must name (the genesis checkpoint's digest); none accepts no such expiration. */
  readonly chainIdentifier?: string
}

/** An object change before versions, digests and storage are settled. */
interface Draft {
  readonly id: string
  readonly before: LedgerObject | undefined
  readonly after: Working | undefined
}

const gasCoinBalance = (state: Working | undefined) => (state?.data._tag === "Coin" ? state.data.balance : 0n)

/**
 * Executes one programmable transaction against a snapshot of objects, as
 * Sui does: admission (execute/Admission.ts), the commands
 * (execute/ProgrammableTransaction.ts) with `spend_account`'s entry functions
 * (execute/SpendAccountEntries.ts), then the effects and what they cost. Pure:
 * it answers what Sui's effects would say; the ledger decides whether to commit.
 */
export const execute = (input: ExecuteInput): Execution | Rejection => {
  const { pkg } = input
  const admitted = admit({
    data: input.data,
    publishedAt: normalizeSuiAddress(pkg.publishedAt),
    epoch: input.epoch,
    referenceGasPrice: input.referenceGasPrice,
    objects: input.objects,
    addressBalance: input.addressBalance ?? (() => 0n),
    chainIdentifier: input.chainIdentifier ?? ""
  })
  if (admitted instanceof Rejection) return admitted
  // Gas paid from the address balance has no coin: effects name no gas object, and the charge is an accumulator write.
  const GAS = admitted.primaryGas?.id ?? accumulatorObjectId(admitted.gasOwner, SUI_COIN_TYPE)
  return effectsOf(input, admitted, runCommands(input, admitted, GAS), GAS)
}

/** The admitted transaction's commands, run with the gas coin (if any) at its balance less the budget. */
const runCommands = (input: ExecuteInput, admitted: Admitted, GAS: string): Interpretation => {
  const { primaryGas, mergedGas, gasBalance, budget } = admitted
  const spendAccount = spendAccountCalls(input.pkg, input.nowMs)
  const callMove: CallMove = (call, runtime) => (isFrameworkFundsCall(call) ? frameworkFundsCalls(call, runtime) : spendAccount(call, runtime))
  return interpret({
    commands: admitted.pt.commands,
    inputs: admitted.inputs,
    sender: admitted.sender,
    digest: input.digest,
    lamport: admitted.lamport,
    objects: input.objects,
    gas: primaryGas === undefined ? undefined : { id: GAS, owner: primaryGas.owner, balance: gasBalance - budget, merged: mergedGas.map((coin) => coin.id) },
    funds: admitted.funds,
    callMove
  })
}

// === Effects: what is written, and what it costs ===

/** Objects as a failed transaction leaves them: mutable inputs at their old contents, merged gas deleted, nothing created. */
const failureChanges = (mutableInputs: ReadonlyArray<LedgerObject>, mergedGas: ReadonlyArray<LedgerObject>): Array<Draft> => [
  ...mutableInputs.map((object) => ({ id: object.id, before: object, after: { data: object.data, owner: object.owner } })),
  ...mergedGas.map((object) => ({ id: object.id, before: object, after: undefined }))
]

/** Objects as a successful run leaves them: every mutable input, merged gas coin and object the commands touched. */
const successChanges = (
  objects: ObjectReader,
  mutableInputs: ReadonlyArray<LedgerObject>,
  mergedGas: ReadonlyArray<LedgerObject>,
  ran: Interpretation
): Array<Draft> => {
  const ids = [...new Set([...mutableInputs.map((o) => o.id), ...mergedGas.map((o) => o.id), ...ran.working.keys()])]
  return ids.flatMap((id): Array<Draft> => {
    const before = objects.get(id)
    const after = ran.deleted.has(id) ? undefined : (ran.working.get(id) ?? (before === undefined ? undefined : { data: before.data, owner: before.owner }))
    if (before === undefined && after === undefined) return []
    return [{ id, before, after }]
  })
}

/** The drafts written at `lamport`, each with its storage cost; the storage charge, and the rebate of what they replace. */
const priced = (drafts: ReadonlyArray<Draft>, lamport: bigint, digest: string, originalId: string) => {
  const withCost = drafts.map((draft) => {
    if (draft.after === undefined) return { ...draft, written: undefined, cost: 0n }
    const written = { id: draft.id, version: lamport, owner: draft.after.owner, createdBy: draft.before?.createdBy ?? digest, previousTransaction: digest, storageRebate: 0n, data: draft.after.data }
    return { ...draft, written, cost: storageCost(written, originalId) }
  })
  const storage = withCost.reduce((sum, d) => sum + d.cost, 0n)
  const refundable = drafts.reduce((sum, d) => sum + (d.before?.storageRebate ?? 0n), 0n)
  const rebate = (refundable * REBATE_BASIS_POINTS) / 10_000n
  return { withCost, storage, rebate, nonRefundable: refundable - rebate }
}

/** The run's effects: what it writes, at what gas cost, and the events and address balance changes it keeps. */
const effectsOf = (input: ExecuteInput, admitted: Admitted, ran: Interpretation, GAS: string): Execution => {
  const { budget, computation, primaryGas, mergedGas, gasBalance, gasOwner, inputObjects, lamport } = admitted
  const originalId = normalizeSuiAddress(input.pkg.originalId)
  const mutableInputs = [...(primaryGas === undefined ? [] : [primaryGas]), ...[...inputObjects.values()].filter((i) => i.mutable).map((i) => i.object)]
  let status = ran.status
  let drafts = "Success" in status ? successChanges(input.objects, mutableInputs, mergedGas, ran) : failureChanges(mutableInputs, mergedGas)
  let cost = priced(drafts, lamport, input.digest, originalId)
  let computationCost = computation
  // The budget must cover computation and storage; else Sui fails the transaction and keeps only the gas charge.
  if (computation + cost.storage > budget) {
    status = { Failure: { error: { InsufficientGas: true }, command: null } }
    drafts = failureChanges(mutableInputs, mergedGas)
    cost = priced(drafts, lamport, input.digest, originalId)
    computationCost = computation + cost.storage > budget ? (budget > cost.storage ? budget - cost.storage : 0n) : computation
  }
  const succeeded = "Success" in status
  const charged = computationCost + cost.storage - cost.rebate
  const gasLeft = succeeded ? gasCoinBalance(ran.working.get(GAS)) + budget - charged : gasBalance - charged
  // A failed transaction's accumulator events are dropped with its other writes (gas_charger `reset`); the gas charge stays.
  const addressBalanceChanges: Array<AddressBalanceChange> = succeeded ? [...ran.addressBalanceChanges] : []
  if (primaryGas === undefined) addressBalanceChanges.push({ address: gasOwner, coinType: SUI_COIN_TYPE, amount: -charged })

  const changes: Array<ObjectChange> = cost.withCost.map((draft) => {
    if (draft.written === undefined) return { id: draft.id, before: draft.before, after: undefined }
    // The gas coin's balance is only known now; every other object is written as it was priced.
    const after = draft.id === GAS && draft.written.data._tag === "Coin"
      ? withVersion({ ...draft.written, storageRebate: draft.cost, data: { ...draft.written.data, balance: gasLeft } }, lamport, originalId)
      : withStorageRebate(draft.written, draft.cost, originalId)
    return { id: draft.id, before: draft.before, after }
  })
  const unchangedShared = [...inputObjects.values()].filter((i) => !i.mutable).map((i) => i.object)

  return {
    epoch: input.epoch,
    status,
    changes,
    unchangedShared,
    gasObjectId: GAS,
    lamportVersion: lamport,
    gasUsed: { computationCost, storageCost: cost.storage, storageRebate: cost.rebate, nonRefundableStorageFee: cost.nonRefundable },
    events: succeeded ? ran.events : [],
    addressBalanceChanges: netAddressBalanceChanges(addressBalanceChanges)
  }
}
