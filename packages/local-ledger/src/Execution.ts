import type { bcs } from "@mysten/sui/bcs"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import type { AddressBalanceChange } from "./execute/AddressBalances.ts"
import type { LedgerObject } from "./LedgerObject.ts"

type EffectsInput = Parameters<typeof bcs.TransactionEffects.serialize>[0]
type EffectsV2Input = Extract<EffectsInput, { V2: unknown }>["V2"]

/** Sui's `ExecutionStatus` exactly as effects serialize it: `{ Success: true }` or `{ Failure: { error, command } }`. */
export type ExecutionStatus = EffectsV2Input["status"]

/** Sui's `ExecutionFailureStatus`, one of its variants (MoveAbort, InsufficientGas, CommandArgumentError, …). */
export type ExecutionFailure = Extract<ExecutionStatus, { Failure: unknown }>["Failure"]["error"]

/** The objects a transaction runs against; only looked up, never listed. */
export type ObjectReader = Pick<ReadonlyMap<string, LedgerObject>, "get" | "has">

/** Sui's `GasCostSummary`. */
export interface GasCostSummary {
  readonly computationCost: bigint
  readonly storageCost: bigint
  readonly storageRebate: bigint
  readonly nonRefundableStorageFee: bigint
}

/** One object a transaction changed: created (no `before`), mutated (both), or deleted (no `after`). */
export interface ObjectChange {
  readonly id: string
  readonly before: LedgerObject | undefined
  readonly after: LedgerObject | undefined
}

/**
 * What executing one transaction did, in the terms of Sui's
 * `TransactionEffectsV2`: every changed object with its input and output
 * state (mutable inputs advance to `lamportVersion` on failure too), the
 * shared inputs only read, gas, and the events.
 */
export interface Execution {
  /** The epoch it executed in. */
  readonly epoch: bigint
  readonly status: ExecutionStatus
  readonly changes: ReadonlyArray<ObjectChange>
  /** Shared objects the transaction took by immutable reference (the Clock): `ReadOnlyRoot` in effects, versions unchanged. */
  readonly unchangedShared: ReadonlyArray<LedgerObject>
  /** The gas coin; with gas paid from the address balance, the gas owner's SUI accumulator, which no change names. */
  readonly gasObjectId: string
  readonly lamportVersion: bigint
  readonly gasUsed: GasCostSummary
  /** Empty when the transaction failed. */
  readonly events: ReadonlyArray<ChainEvent>
  /** Net change of each address balance moved (Sui's `AccumulatorWriteV1` entries); a failure keeps only the gas charge. */
  readonly addressBalanceChanges: ReadonlyArray<AddressBalanceChange>
}
