import { bcs } from "@mysten/sui/bcs"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { normalizeSuiAddress, toBase58 } from "@mysten/sui/utils"
import { blake2b } from "@noble/hashes/blake2.js"
import { Clock, Context, Effect, Layer, PubSub, Random, Schema, Semaphore, Stream } from "effect"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import { normalizeCoinType, type SpendAccountPackage, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Unavailable } from "@gateway/domain/Errors"
import { decodeBase64, encodeBase64 } from "@gateway/chain/Base64"
import { transactionSignedBy } from "@gateway/chain/SuiSignatures"
import { addressBalanceForGas, Rejection } from "./execute/Admission.ts"
import { type CoinMetadata, type CoinMetadataInput, decimalsRefusal, publishedMetadata, sameMetadata, SUI_METADATA } from "./CoinMetadata.ts"
import type { Execution, ObjectReader } from "./Execution.ts"
import { execute } from "./Executor.ts"
import { type IncludedTransaction, type LedgerCheckpoint, makeCheckpoint } from "./LedgerCheckpoint.ts"
import { type BalanceChange, balanceChanges, effectsBcs, type EventsRecord, eventsRecord } from "./LedgerEffects.ts"
import { deriveObjectId } from "@gateway/chain/ObjectIds"
import { genesisObjects, type LedgerObject, withVersion } from "./LedgerObject.ts"
import { type EndedEpoch, GENESIS_EPOCH, type LedgerEpoch, LedgerEpochs } from "./LedgerEpochs.ts"
import { type JournalEntry, LedgerJournal } from "./LedgerJournal.ts"
import { LedgerObjects } from "./LedgerObjects.ts"
import { suiDigest } from "./SuiDigest.ts"
import { faucetGenesisCoin, faucetKeypair, faucetTransfer } from "./FaucetAccount.ts"
import type { SimulationRequest } from "./SimulationRequest.ts"

/** A transaction the ledger refused before executing it (bad signature, stale object, too little gas). */
export class LedgerRejected extends Schema.TaggedError<LedgerRejected>()("LedgerRejected", { reason: Schema.String }) {}

export interface LedgerConfig {
  /** Where `spend_account` is published on this ledger, and its Registry (created at genesis). */
  readonly pkg: SpendAccountPackage
  readonly network: string
  /** Checkpoint every this many ms of the Effect clock; 0 means only on `checkpoint`. */
  readonly checkpointIntervalMs: number
  /** The genesis epoch's reference gas price; `advanceEpoch` may set another for the next. */
  readonly referenceGasPrice: bigint
}

export interface Faults {
  readonly unavailable: boolean
  readonly delayMs: number
  readonly neverFinal: boolean
  readonly dropAfterExecute: boolean
  /** How far the ledger's Clock reads ahead of the process's: time passing, for tests of expiries and windows. */
  readonly clockAheadMs: number
}

export type { SimulationRequest } from "./SimulationRequest.ts"

export type TransactionData = ReturnType<typeof bcs.TransactionData.parse>
type GasData = TransactionData["V1"]["gasData"]
export type ObjectRef = GasData["payment"][number]

/**
 * One executed (or simulated) transaction with everything a full node
 * answers about it: the signed data, the execution, its effects and events as
 * Sui serializes them, the balance changes, and when a checkpoint made it final.
 */
export interface LedgerTransaction {
  readonly digest: string
  readonly data: TransactionData
  /** `TransactionData` BCS, as signed. */
  readonly bcs: Uint8Array
  /** Each signature's serialized bytes (flag, signature, public key). */
  readonly signatures: ReadonlyArray<Uint8Array>
  readonly execution: Execution
  readonly status: "success" | "failure"
  /** A readable account of a failure, as Sui words its status. */
  readonly error: string | null
  readonly events: ReadonlyArray<ChainEvent>
  /** `TransactionEffects` BCS and its digest. */
  readonly effects: Uint8Array
  readonly effectsDigest: string
  readonly eventsRecord: EventsRecord | undefined
  readonly balanceChanges: ReadonlyArray<BalanceChange>
  /** When it executed: the time its Clock reads were taken at. */
  readonly executedAtMs: bigint
  /** Its checkpoint's time; a full node gives none, nor a checkpoint, until a checkpoint includes it. */
  readonly timestampMs: bigint | null
  readonly checkpoint: bigint | null
}

/** What the faucet sent: its transfer, an ordinary transaction, and the coin it created for the recipient. */
export interface FaucetTransfer {
  readonly transaction: LedgerTransaction
  readonly coin: LedgerObject
}


const noFaults: Faults = { unavailable: false, delayMs: 0, neverFinal: false, dropAfterExecute: false, clockAheadMs: 0 }

/**
 * The coin a simulation without gas payment pays from, as Sui's dry run mocks
 * one: 1B SUI, owned by the gas owner. Its id is the largest object id, which
 * no real object derives to.
 */
const MOCK_GAS_ID = `0x${"f".repeat(64)}`
const MOCK_GAS_BALANCE = 1_000_000_000n * 1_000_000_000n
/** Sui's protocol cap on a transaction's budget (`max_tx_gas`). */
const MAX_GAS_BUDGET = 50_000_000_000n
/** The SDK's and full node's safety margin on an estimated budget, in gas units (`GAS_SAFE_OVERHEAD`). */
const GAS_SAFE_OVERHEAD = 1_000n
/** At most this many coins pay for one transaction (`max_gas_payment_objects`). */
const MAX_GAS_COINS = 256

const unavailable = new Unavailable({ message: "The chain is unavailable", reason: "chain_unreachable" })

const divergence = (reason: string) => new Unavailable({ message: "The local ledger's journal does not replay to the state it recorded", reason })

/** Sui's wording of a failed status: the error variant, its details, and the command. */
const describeFailure = (status: Execution["status"]): string | null => {
  if (!("Failure" in status) || status.Failure === undefined) return null
  const { error, command } = status.Failure
  const where = command === null || command === undefined ? "" : ` in command ${command}`
  if ("MoveAbort" in error && error.MoveAbort !== undefined) {
    const [location, code] = error.MoveAbort
    const fn = location.functionName ?? `#${location.function}`
    return `MoveAbort(${location.module.address}::${location.module.name}::${fn}, ${code})${where}`
  }
  const [name = "ExecutionFailure", detail] = Object.entries(error)[0] ?? []
  const shown = detail === true || detail === null || detail === undefined
    ? ""
    : ` ${JSON.stringify(detail, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))}`
  return `${name}${shown}${where}`
}

const isSuiCoin = (object: LedgerObject) => object.data._tag === "Coin" && object.data.coinType === normalizeCoinType(SUI_COIN_TYPE)

/** What the ledger holds and has made: the state its journal's replay rebuilds, and the journal it writes to. */
interface LedgerState {
  readonly config: LedgerConfig
  readonly journal: LedgerJournal["Service"]
  readonly objects: LedgerObjects
  readonly transactions: Map<string, LedgerTransaction>
  readonly epochs: LedgerEpochs
  /** The checkpoint that made each final transaction final. */
  readonly finality: Map<string, Pick<LedgerCheckpoint, "sequenceNumber" | "timestampMs">>
  readonly genesisCheckpoint: LedgerCheckpoint
  readonly checkpoints: Array<LedgerCheckpoint>
  readonly made: PubSub.PubSub<LedgerCheckpoint>
  /** Each coin type's published metadata, by normalized type: SUI's from genesis, others' from the mint that gave it. */
  readonly coinMetadata: Map<string, CoinMetadata>
  pending: Array<string>
  mints: number
  faults: Faults
}

/** The ledger at genesis, and the journal that replays onto it. */
const genesisState = Effect.fnUntraced(function*(config: LedgerConfig, journal: LedgerJournal["Service"]) {
  const { pkg } = config
  const objects = new LedgerObjects()
  const transactions = new Map<string, LedgerTransaction>()
  const journaled = yield* journal.load
  // Epoch 0 has no journal entry (nor has any journal from before epochs): it began when the ledger first ran, which
  // is no later than anything it recorded. Later epochs record their start.
  const startedMs = journaled.reduce((earliest, entry) => Math.min(earliest, entry.atMs), yield* Clock.currentTimeMillis)
  const epochs = new LedgerEpochs({ startMs: BigInt(startedMs), firstCheckpoint: 0n, referenceGasPrice: config.referenceGasPrice })
  const finality = new Map<string, Pick<LedgerCheckpoint, "sequenceNumber" | "timestampMs">>()
  const genesisCheckpoint = makeCheckpoint({ epoch: GENESIS_EPOCH, previous: undefined, timestampMs: 0n, transactions: [] })
  const checkpoints: Array<LedgerCheckpoint> = [genesisCheckpoint]
  const made = yield* PubSub.unbounded<LedgerCheckpoint>()
  const state: LedgerState = {
    config,
    journal,
    objects,
    transactions,
    epochs,
    finality,
    genesisCheckpoint,
    checkpoints,
    made,
    coinMetadata: new Map([[normalizeCoinType(SUI_COIN_TYPE), SUI_METADATA]]),
    pending: [],
    mints: 0,
    faults: noFaults
  }

  for (const object of [...genesisObjects(pkg), faucetGenesisCoin(pkg)]) objects.set(object)
  return { state, journaled }
})

/** The chain a `ValidDuring` expiration names: the genesis checkpoint's digest, as `GetServiceInfo` reports it. */
const chainIdentifier = (state: LedgerState) => state.checkpoints[0]?.digest ?? ""

const latest = (state: LedgerState): LedgerCheckpoint => state.checkpoints[state.checkpoints.length - 1] ?? state.genesisCheckpoint

const guard = <A, E>(state: LedgerState, self: Effect.Effect<A, E>): Effect.Effect<A, E | Unavailable> =>
  Effect.suspend((): Effect.Effect<A, E | Unavailable> => {
    if (state.faults.unavailable) return Effect.fail(unavailable)
    return state.faults.delayMs > 0 ? Effect.andThen(Effect.sleep(state.faults.delayMs), self) : self
  })

const record = (state: LedgerState, entry: JournalEntry, replaying: boolean) => (replaying ? Effect.void : state.journal.append(entry))

const decode = (bytes: Uint8Array) =>
  Effect.try({
    try: () => ({ data: bcs.TransactionData.parse(bytes), digest: TransactionDataBuilder.getDigestFromBytes(bytes) }),
    catch: () => new LedgerRejected({ reason: "transaction bytes are not a BCS TransactionData" })
  })

const run = (state: LedgerState, data: TransactionData, digest: string, nowMs: bigint, against: ObjectReader) => {
  const { epochs, objects } = state
  const result = execute({
    pkg: state.config.pkg,
    data,
    digest,
    nowMs,
    epoch: epochs.current.epoch,
    referenceGasPrice: epochs.current.referenceGasPrice,
    objects: against,
    addressBalance: (address, coinType) => objects.addressBalance(address, coinType),
    chainIdentifier: chainIdentifier(state)
  })
  return result instanceof Rejection ? Effect.fail(new LedgerRejected({ reason: result.reason })) : Effect.succeed(result)
}

const describe = (pkg: SpendAccountPackage, input: {
  readonly digest: string
  readonly data: TransactionData
  readonly bytes: Uint8Array
  readonly signatures: ReadonlyArray<Uint8Array>
  readonly execution: Execution
  readonly executedAtMs: bigint
}): LedgerTransaction => {
  const events = eventsRecord(input.execution.events, pkg.publishedAt)
  const effects = effectsBcs({ digest: input.digest, execution: input.execution, eventsDigest: events?.digest })
  const error = describeFailure(input.execution.status)
  return {
    digest: input.digest,
    data: input.data,
    bcs: input.bytes,
    signatures: input.signatures,
    execution: input.execution,
    status: error === null ? "success" : "failure",
    error,
    events: input.execution.events,
    effects,
    effectsDigest: suiDigest("TransactionEffects", effects),
    eventsRecord: events,
    balanceChanges: balanceChanges(input.execution),
    executedAtMs: input.executedAtMs,
    timestampMs: null,
    checkpoint: null
  }
}

const withFinality = (state: LedgerState, tx: LedgerTransaction): LedgerTransaction => {
  const final = state.finality.get(tx.digest)
  return final === undefined ? tx : { ...tx, checkpoint: final.sequenceNumber, timestampMs: final.timestampMs }
}

// === What changes the ledger, each journaled (unless replaying the journal) ===

const applyExecute = Effect.fnUntraced(function*(state: LedgerState, txBytes: string, signatures: ReadonlyArray<string>, atMs: number, replaying: boolean) {
  const { objects } = state
  const bytes = yield* Effect.try({ try: () => decodeBase64(txBytes), catch: () => new LedgerRejected({ reason: "transaction bytes are not base64" }) })
  const { data, digest } = yield* decode(bytes)
  const known = state.transactions.get(digest)
  if (known !== undefined) return withFinality(state, known)
  const sender = normalizeSuiAddress(data.V1.sender)
  const signers = [...new Set([sender, normalizeSuiAddress(data.V1.gasData.owner)])]
  if (signatures.length !== signers.length) {
    return yield* new LedgerRejected({ reason: `expected ${signers.length} signature(s), got ${signatures.length}` })
  }
  for (const signer of signers) {
    const ok = yield* Effect.forEach(signatures, (sig) => Effect.promise(() => transactionSignedBy(bytes, sig, signer)))
    if (!ok.some(Boolean)) return yield* new LedgerRejected({ reason: `no valid signature by ${signer}` })
  }
  const execution = yield* run(state, data, digest, BigInt(atMs), objects)
  const tx = describe(state.config.pkg, { digest, data, bytes, signatures: signatures.map((s) => decodeBase64(s)), execution, executedAtMs: BigInt(atMs) })
  // A dropped transaction was executed but never committed, so it is not journaled either.
  if (state.faults.dropAfterExecute && !replaying) return tx
  // Journal first: the ledger must not run ahead of what it can replay.
  yield* record(state, { _tag: "Execute", txBytes, signatures, atMs, digest, status: tx.status }, replaying)
  for (const change of execution.changes) {
    if (change.after === undefined) objects.delete(change.id)
    else objects.set(change.after)
  }
  objects.settle(execution.addressBalanceChanges)
  state.transactions.set(digest, tx)
  state.pending.push(digest)
  return tx
})

/** One `mint`: live, or replayed from its journal entry. */
interface Mint {
  readonly recipient: string
  readonly coinType: string
  readonly amount: bigint
  readonly atMs: number
  readonly metadata: CoinMetadataInput | undefined
}

/**
 * The metadata a mint publishes for its type, if it gives any. The first mint that gives some publishes it; a later
 * one may repeat it but not change it, as a published coin's metadata is fixed; one that gives none leaves it as is.
 */
const mintMetadata = (state: LedgerState, type: string, given: CoinMetadataInput | undefined) => {
  if (given === undefined) return Effect.succeed(undefined)
  const refusal = decimalsRefusal(given.decimals)
  if (refusal !== undefined) return Effect.fail(new LedgerRejected({ reason: refusal }))
  const metadata = publishedMetadata(type, given)
  const published = state.coinMetadata.get(type)
  if (published === undefined || sameMetadata(published, metadata)) return Effect.succeed(metadata)
  return Effect.fail(new LedgerRejected({ reason: `${type} already has metadata ${JSON.stringify(published)}, which is fixed once published; this mint gave ${JSON.stringify(metadata)}` }))
}

const applyMint = Effect.fnUntraced(function*(state: LedgerState, mint: Mint, replaying: boolean) {
  const { recipient, amount, atMs } = mint
  const coinType = normalizeCoinType(mint.coinType)
  const metadata = yield* mintMetadata(state, coinType, mint.metadata)
  const seed = blake2b(new TextEncoder().encode(`mint:${state.mints}`), { dkLen: 32 })
  const origin = toBase58(seed)
  const object = withVersion({
    id: deriveObjectId(seed, 0),
    owner: { _tag: "Address", address: normalizeSuiAddress(recipient) },
    createdBy: origin,
    previousTransaction: origin,
    storageRebate: 0n,
    data: { _tag: "Coin", coinType, balance: amount }
  }, 1n, state.config.pkg.originalId)
  yield* record(state, { _tag: "Mint", recipient, coinType: mint.coinType, amount: amount.toString(), atMs, ...(metadata === undefined ? {} : { metadata }) }, replaying)
  state.mints += 1
  state.objects.set(object)
  if (metadata !== undefined) state.coinMetadata.set(coinType, metadata)
  return object
})

/** Makes a checkpoint of exactly `digests`; live, they are what is pending (none under `neverFinal`). */
const applyCheckpoint = Effect.fnUntraced(function*(state: LedgerState, atMs: number, digests: ReadonlyArray<string>, replaying: boolean) {
  yield* record(state, { _tag: "Checkpoint", atMs, digests }, replaying)
  const included: Array<IncludedTransaction> = digests.flatMap((digest) => {
    const tx = state.transactions.get(digest)
    return tx === undefined ? [] : [{ digest, effectsDigest: tx.effectsDigest, signatures: tx.signatures }]
  })
  const checkpoint = makeCheckpoint({ epoch: state.epochs.current.epoch, previous: latest(state), timestampMs: BigInt(atMs), transactions: included })
  state.checkpoints.push(checkpoint)
  for (const tx of included) state.finality.set(tx.digest, checkpoint)
  const done = new Set(digests)
  state.pending = state.pending.filter((digest) => !done.has(digest))
  yield* PubSub.publish(state.made, checkpoint)
  return checkpoint.sequenceNumber
})

/** Starts the next epoch at `atMs`; its first checkpoint is the next one made. */
const applyAdvanceEpoch = Effect.fnUntraced(function*(state: LedgerState, atMs: number, referenceGasPrice: bigint, replaying: boolean) {
  const epoch = state.epochs.current.epoch + 1n
  yield* record(state, { _tag: "AdvanceEpoch", epoch: epoch.toString(), atMs, referenceGasPrice: referenceGasPrice.toString() }, replaying)
  return state.epochs.advance({ startMs: BigInt(atMs), firstCheckpoint: latest(state).sequenceNumber + 1n, referenceGasPrice })
})

const checkpointNow = (state: LedgerState, atMs: number) =>
  // An empty checkpoint changes nothing: skip it so an idle ledger's journal does not grow.
  state.pending.length === 0 ? Effect.succeed(latest(state).sequenceNumber) : applyCheckpoint(state, atMs, state.faults.neverFinal ? [] : [...state.pending], false)

// Replay must rebuild exactly what was recorded: anything else is a ledger that cannot be trusted, so start-up fails.
const replay = Effect.fnUntraced(function*(state: LedgerState, journaled: ReadonlyArray<JournalEntry>) {
  for (const [index, entry] of journaled.entries()) {
    if (entry._tag === "Execute") {
      const replayed = yield* applyExecute(state, entry.txBytes, entry.signatures, entry.atMs, true).pipe(
        Effect.catchTag("LedgerRejected", (rejected) => Effect.fail(divergence(`journal entry ${index} (${entry.digest ?? "execute"}) is now refused: ${rejected.reason}`)))
      )
      if ((entry.digest !== undefined && replayed.digest !== entry.digest) || (entry.status !== undefined && replayed.status !== entry.status)) {
        return yield* divergence(`journal entry ${index} recorded ${entry.digest ?? "?"} ${entry.status ?? "?"}, replay gave ${replayed.digest} ${replayed.status}`)
      }
    } else if (entry._tag === "Mint") {
      const mint = { recipient: entry.recipient, coinType: entry.coinType, amount: BigInt(entry.amount), atMs: entry.atMs, metadata: entry.metadata }
      yield* applyMint(state, mint, true).pipe(
        Effect.catchTag("LedgerRejected", (rejected) => Effect.fail(divergence(`journal entry ${index} (mint) is now refused: ${rejected.reason}`)))
      )
    } else if (entry._tag === "AdvanceEpoch") {
      const expected = state.epochs.current.epoch + 1n
      if (entry.epoch !== expected.toString()) return yield* divergence(`journal entry ${index} starts epoch ${entry.epoch}, replay is at epoch ${expected}`)
      yield* applyAdvanceEpoch(state, entry.atMs, BigInt(entry.referenceGasPrice), true)
    } else {
      yield* applyCheckpoint(state, entry.atMs, entry.digests ?? state.pending, true)
    }
  }
})

// === Simulation: a run against the current state that commits nothing, with gas chosen as a full node does ===

const gasCoins = (state: LedgerState, owner: string): ReadonlyArray<LedgerObject> =>
  state.objects.ownedBy(owner)
    .filter(isSuiCoin)
    .sort((a, b) => (a.data._tag === "Coin" && b.data._tag === "Coin" ? Number(b.data.balance - a.data.balance) : 0) || a.id.localeCompare(b.id))
    .slice(0, MAX_GAS_COINS)

const assemble = (
  request: SimulationRequest,
  payment: ReadonlyArray<ObjectRef>,
  price: bigint,
  budget: bigint,
  expiration: SimulationRequest["expiration"] = request.expiration
) => {
  const bytes = bcs.TransactionData.serialize({
    V1: {
      kind: request.kind,
      sender: request.sender,
      gasData: { payment: [...payment], owner: request.gasOwner, price, budget },
      expiration
    }
  }).toBytes()
  return { bytes, data: bcs.TransactionData.parse(bytes), digest: TransactionDataBuilder.getDigestFromBytes(bytes) }
}

/** The gas owner's mock coin (see MOCK_GAS_ID). */
const mockGasCoin = (owner: string, originalId: string) =>
  withVersion({
    id: MOCK_GAS_ID,
    owner: { _tag: "Address", address: owner },
    createdBy: "simulation",
    previousTransaction: toBase58(new Uint8Array(32)),
    storageRebate: 0n,
    data: { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: MOCK_GAS_BALANCE }
  }, 1n, originalId)

const simulate = Effect.fnUntraced(function*(state: LedgerState, request: SimulationRequest, atMs: number) {
  const { epochs, objects } = state
  const nowMs = BigInt(atMs)
  const price = request.price ?? epochs.current.referenceGasPrice
  const owner = normalizeSuiAddress(request.gasOwner)
  const refOf = (o: LedgerObject): ObjectRef => ({ objectId: o.id, version: o.version.toString(), digest: o.digest })
  const selected = request.payment.length > 0 || !request.gasSelection ? request.payment : gasCoins(state, owner).map(refOf)
  // No payment: pay from a mock coin that exists for this run only.
  const mock = mockGasCoin(owner, state.config.pkg.originalId)
  const payment = selected.length > 0 ? selected : [refOf(mock)]
  const against: ObjectReader = {
    get: (id) => (id === mock.id ? mock : objects.get(id)),
    has: (id) => id === mock.id || objects.has(id)
  }
  const estimate = Effect.fnUntraced(function*() {
    // As a full node estimates: a run paid by the mock coin at the maximum budget, so the real coins' balance
    // (which commands may split from) does not bound it; then what it used plus a margin. Storage is budgeted
    // gross, as execution checks computation + storage against the budget before any rebate.
    const probe = assemble(request, [refOf(mock)], price, MAX_GAS_BUDGET)
    const { gasUsed } = yield* run(state, probe.data, probe.digest, nowMs, against)
    return gasUsed.computationCost + gasUsed.storageCost + GAS_SAFE_OVERHEAD * price
  })
  const budget = request.budget ?? (yield* estimate())
  // As a node's gas selection (sui-rpc-api simulate `select_gas`): a transaction that does not use the gas coin pays
  // from the gas owner's SUI address balance when that covers the budget, with a ValidDuring window for this epoch
  // and the next on this chain; otherwise from coins.
  const forGas = request.gasSelection && request.payment.length === 0
    ? addressBalanceForGas(assemble(request, [], price, budget).data, (address, coinType) => objects.addressBalance(address, coinType))
    : undefined
  if (forGas !== undefined && forGas >= budget) {
    const expiration: SimulationRequest["expiration"] = "None" in request.expiration && request.expiration.None !== undefined
      ? {
        ValidDuring: {
          minEpoch: epochs.current.epoch,
          maxEpoch: epochs.current.epoch + 1n,
          minTimestamp: null,
          maxTimestamp: null,
          chain: chainIdentifier(state),
          nonce: yield* Random.nextIntBetween(0, 2 ** 32)
        }
      }
      : request.expiration
    const fromAddressBalance = assemble(request, [], price, budget, expiration)
    const execution = yield* run(state, fromAddressBalance.data, fromAddressBalance.digest, nowMs, objects)
    return describe(state.config.pkg, { digest: fromAddressBalance.digest, data: fromAddressBalance.data, bytes: fromAddressBalance.bytes, signatures: [], execution, executedAtMs: nowMs })
  }
  if (request.gasSelection && selected.length === 0) {
    return yield* new LedgerRejected({ reason: `no SUI coins owned by ${owner} to pay for gas` })
  }
  const resolved = assemble(request, payment, price, budget)
  const execution = yield* run(state, resolved.data, resolved.digest, nowMs, against)
  return describe(state.config.pkg, { digest: resolved.digest, data: resolved.data, bytes: resolved.bytes, signatures: [], execution, executedAtMs: nowMs })
})

/**
 * The faucet's transfer, as a wallet would make it: built and dry-run for gas, signed by the faucet's key, then
 * executed (and journaled) like any transaction, so its digest can be fetched and a replay reproduces it.
 */
const applyFaucet = Effect.fnUntraced(function*(state: LedgerState, recipient: string, amount: bigint, atMs: number) {
  const built = yield* simulate(state, faucetTransfer(recipient, amount), atMs)
  const { signature } = yield* Effect.promise(() => faucetKeypair.signTransaction(built.bcs))
  const transaction = yield* applyExecute(state, encodeBase64(built.bcs), [signature], atMs, false)
  const address = normalizeSuiAddress(recipient)
  const coin = transaction.execution.changes.find((change) => change.before === undefined && change.after?.owner._tag === "Address" && change.after.owner.address === address)?.after
  if (transaction.status !== "success" || coin === undefined) return yield* new LedgerRejected({ reason: `the faucet's transfer failed: ${transaction.error ?? "no coin was created"}` })
  return { transaction, coin }
}, Effect.catchTag("LedgerRejected", (rejected) => Effect.fail(new Unavailable({ message: "The local faucet could not pay", reason: rejected.reason }))))

// === The service's methods ===

/** What a transaction span carries once it is known: its digest and outcome, never its bytes or signatures. */
const annotateTransaction = (tx: LedgerTransaction) => Effect.annotateCurrentSpan({ digest: tx.digest, status: tx.status })

/** What the ledger's Clock (0x6) reads: the process's clock, ahead by the faults' `clockAheadMs`. */
const ledgerNow = (state: LedgerState) => Effect.map(Clock.currentTimeMillis, (ms) => ms + state.faults.clockAheadMs)

type Service = LocalLedger["Service"]

/** The methods that run transactions and make checkpoints: each at the ledger Clock's time, the committing ones under the lock. */
const writeMethods = (
  state: LedgerState,
  lock: Semaphore.Semaphore,
  now: Effect.Effect<number>,
  checkpointPending: Service["checkpoint"]
): Pick<Service, "executeSigned" | "simulate" | "mint" | "faucet" | "checkpoint"> => ({
  // The span covers the wait for the ledger's lock, which is where concurrent executes queue.
  executeSigned: (txBytes, signatures) =>
    guard(state, lock.withPermit(Effect.flatMap(now, (at) => applyExecute(state, txBytes, signatures, at, false)))).pipe(
      Effect.tap(annotateTransaction),
      Effect.withSpan("LocalLedger.execute")
    ),
  simulate: (request) =>
    guard(state, Effect.flatMap(now, (at) => simulate(state, request, at))).pipe(Effect.tap(annotateTransaction), Effect.withSpan("LocalLedger.simulate")),
  mint: (recipient, coinType, amount, metadata) =>
    guard(state, lock.withPermit(Effect.flatMap(now, (atMs) => applyMint(state, { recipient, coinType, amount, atMs, metadata }, false)))).pipe(
      Effect.tap((coin) => Effect.annotateCurrentSpan("objectId", coin.id)),
      Effect.withSpan("LocalLedger.mint")
    ),
  faucet: (recipient, amount) =>
    guard(state, lock.withPermit(Effect.flatMap(now, (at) => applyFaucet(state, recipient, amount, at)))).pipe(
      Effect.tap(({ transaction }) => annotateTransaction(transaction)),
      Effect.withSpan("LocalLedger.faucet")
    ),
  checkpoint: checkpointPending.pipe(
    Effect.tap((sequenceNumber) => Effect.annotateCurrentSpan("checkpoint", sequenceNumber.toString())),
    Effect.withSpan("LocalLedger.checkpoint")
  )
})

/** The methods that read the ledger as it stands. */
const readMethods = (
  state: LedgerState
): Pick<
  Service,
  | "latestCheckpoint"
  | "getCheckpoint"
  | "checkpoints"
  | "getTransaction"
  | "getObject"
  | "ownedObjects"
  | "addressBalances"
  | "coinMetadata"
  | "currentEpoch"
  | "getEpoch"
> => ({
  latestCheckpoint: guard(state, Effect.sync(() => latest(state))).pipe(Effect.withSpan("LocalLedger.latestCheckpoint")),
  getCheckpoint: (sequenceNumber) =>
    guard(state, Effect.sync(() => (sequenceNumber < 0n ? undefined : state.checkpoints[Number(sequenceNumber)]))).pipe(
      Effect.withSpan("LocalLedger.getCheckpoint", { attributes: { checkpoint: sequenceNumber.toString() } })
    ),
  checkpoints: Stream.unwrap(guard(state, Effect.succeed(Stream.fromPubSub(state.made)))),
  getTransaction: (digest) =>
    guard(state, Effect.sync(() => {
      const tx = state.transactions.get(digest)
      return tx === undefined ? undefined : withFinality(state, tx)
    })).pipe(Effect.withSpan("LocalLedger.getTransaction", { attributes: { digest } })),
  getObject: (id) =>
    guard(state, Effect.sync(() => state.objects.get(normalizeSuiAddress(id)))).pipe(Effect.withSpan("LocalLedger.getObject", { attributes: { objectId: id } })),
  ownedObjects: (owner) =>
    guard(state, Effect.sync(() => {
      const address = normalizeSuiAddress(owner)
      return [...state.objects.ownedBy(address)].sort((a, b) => a.id.localeCompare(b.id))
    })).pipe(Effect.withSpan("LocalLedger.ownedObjects")),
  addressBalances: (owner) => guard(state, Effect.sync(() => state.objects.addressBalancesOf(owner))).pipe(Effect.withSpan("LocalLedger.addressBalances")),
  coinMetadata: (coinType) =>
    guard(state, Effect.sync(() => state.coinMetadata.get(normalizeCoinType(coinType)))).pipe(Effect.withSpan("LocalLedger.coinMetadata", { attributes: { coinType } })),
  currentEpoch: guard(state, Effect.sync(() => state.epochs.current)).pipe(Effect.withSpan("LocalLedger.currentEpoch")),
  getEpoch: (epoch) => guard(state, Effect.sync(() => state.epochs.get(epoch))).pipe(Effect.withSpan("LocalLedger.getEpoch", { attributes: { epoch: epoch.toString() } }))
})

/** The test hooks: faults to inject, and the end of an epoch. */
const testHooks = (state: LedgerState, lock: Semaphore.Semaphore, now: Effect.Effect<number>): Pick<Service, "setFaults" | "advanceEpoch"> => ({
  setFaults: (next) =>
    Effect.sync(() => {
      state.faults = { ...state.faults, ...next }
    }),
  // A test hook, so not subject to the faults: an epoch ends on time whether or not the node is reachable. Every
  // epoch ends with a checkpoint of its own, as Sui's end-of-epoch checkpoint closes it; under `neverFinal` it holds nothing.
  advanceEpoch: (options) =>
    lock.withPermit(Effect.gen(function*() {
      const at = yield* now
      yield* applyCheckpoint(state, at, state.faults.neverFinal ? [] : [...state.pending], false)
      const { epoch } = yield* applyAdvanceEpoch(state, at, options?.referenceGasPrice ?? state.epochs.current.referenceGasPrice, false)
      return { epoch }
    })).pipe(
      // A journal that cannot be written here is a broken test setup, not a chain outage to model.
      Effect.orDie,
      Effect.tap(({ epoch }) => Effect.annotateCurrentSpan("epoch", epoch.toString())),
      Effect.withSpan("LocalLedger.advanceEpoch")
    )
})

/**
 * A deterministic in-process Sui ledger: it checks signatures and object
 * versions, executes `spend_account` with the Move module's rules, assigns
 * digests and object ids as Sui does, and makes transactions final only when
 * a checkpoint includes them. State is rebuilt by replaying its journal.
 */
export class LocalLedger extends Context.Service<LocalLedger, {
  readonly config: LedgerConfig
  executeSigned(txBytes: string, signatures: ReadonlyArray<string>): Effect.Effect<LedgerTransaction, LedgerRejected | Unavailable>
  /** Executes against the current state, choosing gas if asked, and commits nothing: no object, digest or journal entry. */
  simulate(request: SimulationRequest): Effect.Effect<LedgerTransaction, LedgerRejected | Unavailable>
  /**
   * Local mode only: mints a coin of any type to an address, out of thin air (no transaction, no digest to fetch).
   * With `metadata`, the type has it from then on, as a published coin does (name and symbol default to the type's
   * name); a mint giving other metadata than the type's is refused, since a coin's metadata is fixed once published.
   * Without, the type keeps what it has: none, if no mint gave any.
   */
  mint(recipient: string, coinType: string, amount: bigint, metadata?: CoinMetadataInput): Effect.Effect<LedgerObject, LedgerRejected | Unavailable>
  /** The faucet (`/v2/gas`): a transfer of `amount` SUI, signed by the faucet's address and executed like any transaction. */
  faucet(recipient: string, amount: bigint): Effect.Effect<FaucetTransfer, Unavailable>
  readonly checkpoint: Effect.Effect<bigint, Unavailable>
  readonly latestCheckpoint: Effect.Effect<LedgerCheckpoint, Unavailable>
  getCheckpoint(sequenceNumber: bigint): Effect.Effect<LedgerCheckpoint | undefined, Unavailable>
  /** Every checkpoint made from now on, as it is made (SubscribeCheckpoints). */
  readonly checkpoints: Stream.Stream<LedgerCheckpoint, Unavailable>
  /** A transaction as executed, final or not. */
  getTransaction(digest: string): Effect.Effect<LedgerTransaction | undefined, Unavailable>
  getObject(id: string): Effect.Effect<LedgerObject | undefined, Unavailable>
  /** Objects owned by the address, by id. */
  ownedObjects(owner: string): Effect.Effect<ReadonlyArray<LedgerObject>, Unavailable>
  /** What the address holds in its address balance, by coin type (none at 0). */
  addressBalances(owner: string): Effect.Effect<ReadonlyMap<string, bigint>, Unavailable>
  /** A coin type's published metadata (`GetCoinInfo`): SUI's, or what a mint gave; none for other types. */
  coinMetadata(coinType: string): Effect.Effect<CoinMetadata | undefined, Unavailable>
  setFaults(faults: Partial<Faults>): Effect.Effect<void>
  /**
   * Test hook: ends the current epoch, as Sui does every 24 hours, with a checkpoint of what is pending, and starts
   * the next at the ledger Clock's time, with `referenceGasPrice` (else the current one). Transactions that expire
   * with the ended epoch are refused from then on. Journaled, so a restarted ledger is in the same epoch.
   */
  advanceEpoch(options?: { readonly referenceGasPrice?: bigint }): Effect.Effect<{ readonly epoch: bigint }>
  /** The epoch the ledger is in. */
  readonly currentEpoch: Effect.Effect<LedgerEpoch, Unavailable>
  /** An epoch reached so far, a past one with its end. */
  getEpoch(epoch: bigint): Effect.Effect<LedgerEpoch | EndedEpoch | undefined, Unavailable>
  /** What the ledger's Clock (0x6) reads now, in ms. */
  readonly now: Effect.Effect<number>
}>()("@gateway/local-ledger/LocalLedger") {
  static readonly layer = (config: LedgerConfig) =>
    Layer.effect(
      LocalLedger,
      Effect.gen(function*() {
        const journal = yield* LedgerJournal
        const lock = yield* Semaphore.make(1)
        const { state, journaled } = yield* genesisState(config, journal)
        yield* replay(state, journaled)

        const now = ledgerNow(state)
        const checkpointPending = guard(state, lock.withPermit(Effect.flatMap(now, (at) => checkpointNow(state, at))))
        // The timer's checkpoints get no span: an idle ledger would otherwise trace one every interval.
        if (config.checkpointIntervalMs > 0) {
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(config.checkpointIntervalMs), Effect.ignore(checkpointPending))))
        }

        return LocalLedger.of({
          config,
          ...writeMethods(state, lock, now, checkpointPending),
          ...readMethods(state),
          ...testHooks(state, lock, now),
          now
        })
      })
    )
}
