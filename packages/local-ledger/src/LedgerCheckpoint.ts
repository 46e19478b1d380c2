import { bcs } from "@mysten/sui/bcs"
import { fromBase58, toBase58 } from "@mysten/sui/utils"
import { suiDigest } from "./SuiDigest.ts"

const Digest = bcs.fixedArray(32, bcs.u8()).transform({
  input: (digest: string) => Array.from(fromBase58(digest)),
  output: (bytes) => toBase58(Uint8Array.from(bytes))
})

/** Sui's `CheckpointContents::V1`: each transaction's digest and effects digest, and its signatures. */
const CheckpointContentsBcs = bcs.enum("CheckpointContents", {
  V1: bcs.struct("CheckpointContentsV1", {
    transactions: bcs.vector(bcs.struct("ExecutionDigests", { transaction: Digest, effects: Digest })),
    userSignatures: bcs.vector(bcs.vector(bcs.byteVector()))
  })
})

/** Sui's `CheckpointSummary`, with no commitments and no end-of-epoch data. */
const CheckpointSummaryBcs = bcs.struct("CheckpointSummary", {
  epoch: bcs.u64(),
  sequenceNumber: bcs.u64(),
  networkTotalTransactions: bcs.u64(),
  contentDigest: Digest,
  previousDigest: bcs.option(Digest),
  epochRollingGasCostSummary: bcs.struct("GasCostSummary", {
    computationCost: bcs.u64(),
    storageCost: bcs.u64(),
    storageRebate: bcs.u64(),
    nonRefundableStorageFee: bcs.u64()
  }),
  timestampMs: bcs.u64(),
  checkpointCommitments: bcs.vector(bcs.byteVector()),
  endOfEpochData: bcs.option(bcs.byteVector()),
  versionSpecificData: bcs.byteVector()
})

/** One checkpoint of the ledger: what it made final and the digests that chain it to the one before. */
export interface LedgerCheckpoint {
  /** The epoch it was made in. */
  readonly epoch: bigint
  readonly sequenceNumber: bigint
  readonly digest: string
  readonly previousDigest: string | undefined
  readonly contentDigest: string
  readonly timestampMs: bigint
  /** Transactions made final here, in execution order. */
  readonly transactions: ReadonlyArray<string>
  readonly networkTotalTransactions: bigint
  readonly summaryBcs: Uint8Array
  readonly contentsBcs: Uint8Array
}

export interface IncludedTransaction {
  readonly digest: string
  readonly effectsDigest: string
  readonly signatures: ReadonlyArray<Uint8Array>
}

/** Builds the checkpoint after `previous`, in `epoch`, with Sui's contents and summary digests. */
export const makeCheckpoint = (input: {
  readonly epoch: bigint
  readonly previous: LedgerCheckpoint | undefined
  readonly timestampMs: bigint
  readonly transactions: ReadonlyArray<IncludedTransaction>
}): LedgerCheckpoint => {
  const { previous } = input
  const contentsBcs = CheckpointContentsBcs.serialize({
    V1: {
      transactions: input.transactions.map((tx) => ({ transaction: tx.digest, effects: tx.effectsDigest })),
      userSignatures: input.transactions.map((tx) => tx.signatures.map((signature) => Array.from(signature)))
    }
  }).toBytes()
  const contentDigest = suiDigest("CheckpointContents", contentsBcs)
  const sequenceNumber = previous === undefined ? 0n : previous.sequenceNumber + 1n
  const networkTotalTransactions = (previous?.networkTotalTransactions ?? 0n) + BigInt(input.transactions.length)
  const summaryBcs = CheckpointSummaryBcs.serialize({
    epoch: input.epoch,
    sequenceNumber,
    networkTotalTransactions,
    contentDigest,
    previousDigest: previous?.digest ?? null,
    epochRollingGasCostSummary: { computationCost: 0n, storageCost: 0n, storageRebate: 0n, nonRefundableStorageFee: 0n },
    timestampMs: input.timestampMs,
    checkpointCommitments: [],
    endOfEpochData: null,
    versionSpecificData: []
  }).toBytes()
  return {
    epoch: input.epoch,
    sequenceNumber,
    digest: suiDigest("CheckpointSummary", summaryBcs),
    previousDigest: previous?.digest,
    contentDigest,
    timestampMs: input.timestampMs,
    transactions: input.transactions.map((tx) => tx.digest),
    networkTotalTransactions,
    summaryBcs,
    contentsBcs
  }
}
