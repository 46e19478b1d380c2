import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { Clock, Context, Effect, Layer, Option, Schema, Semaphore } from "effect"
import type { ChainEvent, ChainMoveCall, ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import { CLOCK_OBJECT_ID, normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { NotFinal, Unavailable } from "@gateway/domain/Errors"
import { execute, type ObjectEffects, type ObjectReader, Rejection } from "./Executor.ts"
import { deriveObjectId, type LedgerObject, withVersion } from "./LedgerObject.ts"
import { type JournalEntry, LedgerJournal } from "./LedgerJournal.ts"

/** A transaction the ledger refused before executing it (bad signature, stale object, too little gas). */
export class LedgerRejected extends Schema.TaggedError<LedgerRejected>()("LedgerRejected", { reason: Schema.String }) {}

export interface LedgerConfig {
  /** Where `spend_account` is published on this ledger. */
  readonly packageId: string
  readonly network: string
  /** Checkpoint every this many ms of the Effect clock; 0 means only on `checkpoint`. */
  readonly checkpointIntervalMs: number
  readonly referenceGasPrice: bigint
}

export interface Faults {
  readonly unavailable: boolean
  readonly delayMs: number
  readonly neverFinal: boolean
  readonly dropAfterExecute: boolean
}

type TransactionData = ReturnType<typeof bcs.TransactionData.parse>

const noFaults: Faults = { unavailable: false, delayMs: 0, neverFinal: false, dropAfterExecute: false }

interface RecordedTransaction {
  readonly digest: string
  readonly sender: string
  readonly status: "success" | "failure"
  readonly error: string | null
  readonly calls: ReadonlyArray<ChainMoveCall>
  readonly events: ReadonlyArray<ChainEvent>
  readonly timestampMs: number
  readonly txBytes: string
  readonly signatures: ReadonlyArray<string>
  readonly effects: ObjectEffects
  checkpoint: bigint | null
}

export interface Executed {
  readonly digest: string
  readonly status: "success" | "failure"
  readonly error: string | null
  readonly events: ReadonlyArray<ChainEvent>
}

/** A dry run's outcome: what executing would do now, with nothing committed. */
export interface DryRun extends Executed {
  readonly effects: ObjectEffects
}

/**
 * The coin a dry run without gas payment pays from, as Sui's dry run mocks
 * one: 1B SUI, owned by the gas owner. Its id is the largest object id, which
 * no real object derives to.
 */
const MOCK_GAS_ID = `0x${"f".repeat(64)}`
const MOCK_GAS_BALANCE = 1_000_000_000n * 1_000_000_000n

const unavailable = new Unavailable({ message: "The chain is unavailable", reason: "chain_unreachable" })

/**
 * A deterministic in-process Sui ledger: it checks signatures and object
 * versions, executes `spend_account` with the Move module's rules, assigns
 * digests and object ids as Sui does, and makes transactions final only when
 * a checkpoint includes them. State is rebuilt by replaying its journal.
 */
export class LocalLedger extends Context.Service<LocalLedger, {
  readonly config: LedgerConfig
  executeSigned(txBytes: string, signatures: ReadonlyArray<string>): Effect.Effect<Executed, LedgerRejected | Unavailable>
  /** Executes unsigned bytes against the current state and commits nothing: no object, digest or journal entry. */
  dryRun(txBytes: string): Effect.Effect<DryRun, LedgerRejected | Unavailable>
  /** Faucet, local mode only: mints a coin of any type to an address. */
  mint(recipient: string, coinType: string, amount: bigint): Effect.Effect<LedgerObject, Unavailable>
  readonly checkpoint: Effect.Effect<bigint, Unavailable>
  readonly latestCheckpoint: Effect.Effect<bigint, Unavailable>
  getTransaction(digest: string): Effect.Effect<ChainTransaction, NotFinal | Unavailable>
  /** Raw transaction (bytes and signatures) as executed, final or not, with what it did to objects. */
  getRaw(digest: string): Effect.Effect<
    Option.Option<{ txBytes: string; signatures: ReadonlyArray<string>; checkpoint: bigint | null; timestampMs: number; effects: ObjectEffects }>,
    Unavailable
  >
  getObject(id: string): Effect.Effect<Option.Option<LedgerObject>, Unavailable>
  ownedObjects(owner: string): Effect.Effect<ReadonlyArray<LedgerObject>, Unavailable>
  /** Every event of one type from final transactions, in execution order. */
  finalEvents(type: string): Effect.Effect<ReadonlyArray<{ digest: string; seq: number; event: ChainEvent }>, Unavailable>
  /** Shared objects whose creating transaction is final. */
  readonly finalSharedObjects: Effect.Effect<ReadonlyArray<LedgerObject>, Unavailable>
  setFaults(faults: Partial<Faults>): Effect.Effect<void>
}>()("@gateway/chain/LocalLedger") {
  static readonly layer = (config: LedgerConfig) =>
    Layer.effect(
      LocalLedger,
      Effect.gen(function*() {
        const journal = yield* LedgerJournal
        const lock = yield* Semaphore.make(1)
        const objects = new Map<string, LedgerObject>()
        const transactions = new Map<string, RecordedTransaction>()
        let pending: Array<string> = []
        let checkpointSeq = 0n
        let mints = 0
        let faults = noFaults

        objects.set(CLOCK_OBJECT_ID, withVersion({
          id: CLOCK_OBJECT_ID,
          owner: { _tag: "Shared", initialSharedVersion: 1n },
          createdBy: "genesis",
          data: { _tag: "Clock" }
        }, 1n))

        const guard = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | Unavailable> =>
          Effect.suspend((): Effect.Effect<A, E | Unavailable> => {
            if (faults.unavailable) return Effect.fail(unavailable)
            return faults.delayMs > 0 ? Effect.andThen(Effect.sleep(faults.delayMs), self) : self
          })

        const record = (entry: JournalEntry, replaying: boolean) => (replaying ? Effect.void : journal.append(entry))

        const decode = (txBytes: string) =>
          Effect.try({
            try: () => {
              const bytes = fromBase64(txBytes)
              return { bytes, data: bcs.TransactionData.parse(bytes), digest: TransactionDataBuilder.getDigestFromBytes(bytes) }
            },
            catch: () => new LedgerRejected({ reason: "transaction bytes are not a BCS TransactionData" })
          })

        const run = (data: TransactionData, digest: string, atMs: number, against: ObjectReader) => {
          const result = execute({
            packageId: config.packageId,
            data,
            digest,
            nowMs: BigInt(atMs),
            referenceGasPrice: config.referenceGasPrice,
            objects: against
          })
          return result instanceof Rejection ? Effect.fail(new LedgerRejected({ reason: result.reason })) : Effect.succeed(result)
        }

        const applyExecute = Effect.fnUntraced(function*(txBytes: string, signatures: ReadonlyArray<string>, atMs: number, replaying: boolean) {
          const { bytes, data, digest } = yield* decode(txBytes)
          const known = transactions.get(digest)
          if (known !== undefined) return { digest, status: known.status, error: known.error, events: known.events }
          const sender = normalizeSuiAddress(data.V1.sender)
          const signers = [...new Set([sender, normalizeSuiAddress(data.V1.gasData.owner)])]
          if (signatures.length !== signers.length) {
            return yield* new LedgerRejected({ reason: `expected ${signers.length} signature(s), got ${signatures.length}` })
          }
          for (const signer of signers) {
            const ok = yield* Effect.promise(() =>
              Promise.all(signatures.map((sig) => verifyTransactionSignature(bytes, sig, { address: signer }).then(() => true, () => false)))
            )
            if (!ok.some(Boolean)) return yield* new LedgerRejected({ reason: `no valid signature by ${signer}` })
          }
          const result = yield* run(data, digest, atMs, objects)
          // A dropped transaction was executed but never committed, so it is not journaled either.
          if (faults.dropAfterExecute && !replaying) return { digest, status: result.status, error: result.error, events: result.events }
          // Journal first: the ledger must not run ahead of what it can replay.
          yield* record({ _tag: "Execute", txBytes, signatures, atMs }, replaying)
          for (const id of result.deleted) objects.delete(id)
          for (const object of result.written) objects.set(object.id, object)
          transactions.set(digest, {
            digest,
            sender,
            status: result.status,
            error: result.error,
            calls: result.calls,
            events: result.events,
            timestampMs: atMs,
            txBytes,
            signatures,
            effects: result,
            checkpoint: null
          })
          pending.push(digest)
          return { digest, status: result.status, error: result.error, events: result.events }
        })

        const applyMint = Effect.fnUntraced(function*(recipient: string, coinType: string, amount: bigint, atMs: number, replaying: boolean) {
          const seed = blake2b(new TextEncoder().encode(`mint:${mints}`), { dkLen: 32 })
          const object = withVersion({
            id: deriveObjectId(seed, 0),
            owner: { _tag: "Address", address: normalizeSuiAddress(recipient) },
            createdBy: "faucet",
            data: { _tag: "Coin", coinType: normalizeCoinType(coinType), balance: amount }
          }, 1n)
          yield* record({ _tag: "Mint", recipient, coinType, amount: amount.toString(), atMs }, replaying)
          mints += 1
          objects.set(object.id, object)
          return object
        })

        /** Advances the checkpoint and makes exactly `digests` final; live, they are what is pending (none under `neverFinal`). */
        const applyCheckpoint = Effect.fnUntraced(function*(atMs: number, digests: ReadonlyArray<string>, replaying: boolean) {
          yield* record({ _tag: "Checkpoint", atMs, digests }, replaying)
          checkpointSeq += 1n
          const included = new Set(digests)
          for (const digest of digests) {
            const tx = transactions.get(digest)
            if (tx !== undefined) tx.checkpoint = checkpointSeq
          }
          pending = pending.filter((digest) => !included.has(digest))
          return checkpointSeq
        })

        const checkpointNow = (atMs: number) =>
          // An empty checkpoint changes nothing: skip it so an idle ledger's journal does not grow.
          pending.length === 0 ? Effect.succeed(checkpointSeq) : applyCheckpoint(atMs, faults.neverFinal ? [] : [...pending], false)

        for (const entry of yield* journal.load) {
          if (entry._tag === "Execute") yield* Effect.ignore(applyExecute(entry.txBytes, entry.signatures, entry.atMs, true))
          else if (entry._tag === "Mint") yield* applyMint(entry.recipient, entry.coinType, BigInt(entry.amount), entry.atMs, true)
          else yield* applyCheckpoint(entry.atMs, entry.digests ?? pending, true)
        }

        const dryRun = Effect.fnUntraced(function*(txBytes: string, atMs: number) {
          const { data, digest } = yield* decode(txBytes)
          if (data.V1.gasData.payment.length > 0) return { digest, execution: yield* run(data, digest, atMs, objects) }
          // No payment: pay from a mock coin that exists for this run only.
          const mock = withVersion({
            id: MOCK_GAS_ID,
            owner: { _tag: "Address", address: normalizeSuiAddress(data.V1.gasData.owner) },
            createdBy: "dry-run",
            data: { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: MOCK_GAS_BALANCE }
          }, 1n)
          const withMock: ObjectReader = {
            get: (id) => (id === mock.id ? mock : objects.get(id)),
            has: (id) => id === mock.id || objects.has(id)
          }
          const paid = { ...data, V1: { ...data.V1, gasData: { ...data.V1.gasData, payment: [{ objectId: mock.id, version: mock.version.toString(), digest: mock.digest }] } } }
          return { digest, execution: yield* run(paid, digest, atMs, withMock) }
        })

        const now = Clock.currentTimeMillis
        const checkpoint = guard(lock.withPermit(Effect.flatMap(now, checkpointNow)))
        if (config.checkpointIntervalMs > 0) {
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(config.checkpointIntervalMs), Effect.ignore(checkpoint))))
        }

        const toChainTransaction = (tx: RecordedTransaction): ChainTransaction => ({
          digest: tx.digest,
          sender: tx.sender,
          status: tx.status,
          error: tx.error,
          checkpoint: tx.checkpoint === null ? null : tx.checkpoint.toString(),
          timestampMs: String(tx.timestampMs),
          calls: tx.calls,
          events: tx.events
        })

        return LocalLedger.of({
          config,
          executeSigned: (txBytes, signatures) =>
            guard(lock.withPermit(Effect.flatMap(now, (at) => applyExecute(txBytes, signatures, at, false)))),
          dryRun: (txBytes) =>
            guard(Effect.map(Effect.flatMap(now, (at) => dryRun(txBytes, at)), ({ digest, execution }) => ({
              digest,
              status: execution.status,
              error: execution.error,
              events: execution.events,
              effects: execution
            }))),
          mint: (recipient, coinType, amount) =>
            guard(lock.withPermit(Effect.flatMap(now, (at) => applyMint(recipient, coinType, amount, at, false)))),
          checkpoint,
          latestCheckpoint: guard(Effect.sync(() => checkpointSeq)),
          getTransaction: (digest) =>
            guard(Effect.suspend(() => {
              const tx = transactions.get(digest)
              if (tx === undefined) return Effect.fail(new NotFinal({ message: "The transaction is not known to the chain yet", reason: "unknown_digest" }))
              return Effect.succeed(toChainTransaction(tx))
            })),
          getRaw: (digest) =>
            guard(Effect.sync(() =>
              Option.map(Option.fromNullishOr(transactions.get(digest)), (tx) => ({
                txBytes: tx.txBytes,
                signatures: tx.signatures,
                checkpoint: tx.checkpoint,
                timestampMs: tx.timestampMs,
                effects: tx.effects
              }))
            )),
          getObject: (id) => guard(Effect.sync(() => Option.fromNullishOr(objects.get(normalizeSuiAddress(id))))),
          ownedObjects: (owner) =>
            guard(Effect.sync(() => {
              const address = normalizeSuiAddress(owner)
              return [...objects.values()].filter((o) => o.owner._tag === "Address" && o.owner.address === address)
            })),
          finalEvents: (type) =>
            guard(Effect.sync(() =>
              [...transactions.values()]
                .filter((tx) => tx.checkpoint !== null)
                .flatMap((tx) => tx.events.map((event, seq) => ({ digest: tx.digest, seq, event })))
                .filter((e) => e.event.type === type)
            )),
          finalSharedObjects: guard(Effect.sync(() =>
            [...objects.values()].filter((o) => {
              if (o.owner._tag !== "Shared") return false
              const creator = transactions.get(o.createdBy)
              return creator !== undefined && creator.checkpoint !== null
            })
          )),
          setFaults: (next) => Effect.sync(() => {
            faults = { ...faults, ...next }
          })
        })
      })
    )
}
