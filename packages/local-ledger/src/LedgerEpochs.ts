/** Sui's epoch length on mainnet and testnet (`epoch_duration_ms`): what the system state announces. The ledger changes epoch only when told. */
export const EPOCH_DURATION_MS = 86_400_000n

/** The epoch a ledger starts in, as Sui's genesis does. */
export const GENESIS_EPOCH = 0n

/** One epoch of the ledger: when it began by the ledger's Clock, its first checkpoint, and the gas price it set. */
export interface LedgerEpoch {
  readonly epoch: bigint
  readonly startMs: bigint
  readonly firstCheckpoint: bigint
  readonly referenceGasPrice: bigint
}

/** A past epoch with how it ended: the next one's start, and the checkpoint before the next one's first. */
export interface EndedEpoch extends LedgerEpoch {
  readonly endMs: bigint
  readonly lastCheckpoint: bigint
}

/**
 * The ledger's epochs, genesis first: the last is the current one, whose
 * number transactions' expirations are checked against and whose reference
 * gas price they must pay at least. Past epochs are kept so GetEpoch can
 * answer them with their end, as a full node does.
 */
export class LedgerEpochs {
  private readonly genesis: LedgerEpoch
  /** Every epoch after genesis, in order. */
  private readonly later: Array<LedgerEpoch> = []

  constructor(genesis: Omit<LedgerEpoch, "epoch">) {
    this.genesis = { ...genesis, epoch: GENESIS_EPOCH }
  }

  get current(): LedgerEpoch {
    return this.later[this.later.length - 1] ?? this.genesis
  }

  private at(epoch: bigint): LedgerEpoch | undefined {
    return epoch === GENESIS_EPOCH ? this.genesis : epoch > GENESIS_EPOCH ? this.later[Number(epoch - GENESIS_EPOCH) - 1] : undefined
  }

  /** Epoch `epoch` as it stands: the current one, or a past one with its end; none for an epoch not reached. */
  get(epoch: bigint): LedgerEpoch | EndedEpoch | undefined {
    const found = this.at(epoch)
    const next = this.at(epoch + 1n)
    if (found === undefined || next === undefined) return found
    return { ...found, endMs: next.startMs, lastCheckpoint: next.firstCheckpoint - 1n }
  }

  /** Ends the current epoch and starts the next one at `startMs`; `firstCheckpoint` is the next checkpoint to be made. */
  advance(next: Omit<LedgerEpoch, "epoch">): LedgerEpoch {
    const started = { ...next, epoch: this.current.epoch + 1n }
    this.later.push(started)
    return started
  }
}
