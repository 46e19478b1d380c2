import { bcs, TypeTagSerializer } from "@mysten/sui/bcs"
import type { ChainEvent } from "@gateway/domain/chain/ChainTransaction"
import { MODULE } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "@gateway/chain/Base64"
import { addressBytes } from "./AddressBytes.ts"
import { accumulatorObjectId } from "./execute/AddressBalances.ts"
import type { Execution } from "./Execution.ts"
import { type LedgerObject, ownerBcs } from "./LedgerObject.ts"
import { suiDigest } from "./SuiDigest.ts"

/** Sui's `Event` and `TransactionEvents`, which the SDK's `bcs` does not export. */
const EventBcs = bcs.struct("Event", {
  packageId: bcs.Address,
  transactionModule: bcs.string(),
  sender: bcs.Address,
  type: bcs.StructTag,
  contents: bcs.byteVector()
})
const TransactionEventsBcs = bcs.struct("TransactionEvents", { data: bcs.vector(EventBcs) })

/** One balance change as a full node reports it: a coin owner's net change of one coin type. */
export interface BalanceChange {
  readonly address: string
  readonly coinType: string
  readonly amount: bigint
}

type EffectsV2 = Extract<Parameters<typeof bcs.TransactionEffects.serialize>[0], { V2: unknown }>["V2"]
/** One entry of `changedObjects`: an object's input and output state, or an accumulator write. */
type EffectsObjectChange = EffectsV2["changedObjects"] extends Iterable<readonly [unknown, infer C]> ? C : never

/** A transaction's events as Sui serializes them, with their digest; none when nothing was emitted. */
export interface EventsRecord {
  readonly bcs: Uint8Array
  readonly digest: string
}

/** A struct type as BCS's `StructTag` takes it. */
const structTagOf = (type: string) => {
  const tag = TypeTagSerializer.parseFromStr(type, true)
  if (!("struct" in tag)) throw new Error(`event type ${type} is not a struct`)
  return tag.struct
}

/** The events as emitted by a call into `spend_account` at `publishedAt` (Sui names the calling package and module). */
export const eventsRecord = (events: ReadonlyArray<ChainEvent>, publishedAt: string): EventsRecord | undefined => {
  if (events.length === 0) return undefined
  const bytes = TransactionEventsBcs.serialize({
    data: events.map((event) => ({
      packageId: addressBytes(publishedAt),
      transactionModule: MODULE,
      sender: addressBytes(event.sender),
      type: structTagOf(event.type),
      contents: decodeBase64(event.bcs)
    }))
  }).toBytes()
  return { bcs: bytes, digest: suiDigest("TransactionEvents", bytes) }
}

/**
 * The execution as Sui's `TransactionEffectsV2`: every changed object with
 * its input and output state, the shared inputs only read, gas, the events'
 * digest, the epoch it executed in, with no dependencies tracked.
 */
export const effectsBcs = (input: {
  readonly digest: string
  readonly execution: Execution
  readonly eventsDigest: string | undefined
}): Uint8Array => {
  const { execution } = input
  const objectEntries = execution.changes.map((change): readonly [string, EffectsObjectChange] => [change.id, {
    inputState: change.before === undefined
      ? { NotExist: true }
      : { Exist: [[change.before.version, change.before.digest], ownerBcs(change.before.owner)] },
    outputState: change.after === undefined ? { NotExist: true } : { ObjectWrite: [change.after.digest, ownerBcs(change.after.owner)] },
    idOperation: change.before === undefined ? { Created: true } : change.after === undefined ? { Deleted: true } : { None: true }
  }])
  // Each address balance moved is an accumulator write at its accumulator object's id (sui-types effects
  // `ObjectOut::AccumulatorWriteV1`): a Merge of what came in, or a Split of what went out, net.
  const accumulatorEntries = execution.addressBalanceChanges.map((change): readonly [string, EffectsObjectChange] => [accumulatorObjectId(change.address, change.coinType), {
    inputState: { NotExist: true },
    outputState: {
      AccumulatorWriteV1: {
        address: { address: change.address, ty: TypeTagSerializer.parseFromStr(`0x2::balance::Balance<${change.coinType}>`, true) },
        operation: change.amount > 0n ? { Merge: true } : { Split: true },
        value: { Integer: change.amount > 0n ? change.amount : -change.amount }
      }
    },
    idOperation: { None: true }
  }])
  const changed = [...objectEntries, ...accumulatorEntries].sort(([a], [b]) => a.localeCompare(b))
  const gasIndex = changed.findIndex(([id]) => id === execution.gasObjectId)
  return bcs.TransactionEffects.serialize({
    V2: {
      status: execution.status,
      executedEpoch: execution.epoch,
      gasUsed: execution.gasUsed,
      transactionDigest: input.digest,
      gasObjectIndex: gasIndex < 0 ? null : gasIndex,
      eventsDigest: input.eventsDigest ?? null,
      dependencies: [],
      lamportVersion: execution.lamportVersion,
      changedObjects: changed.map(([id, change]) => [addressBytes(id), change]),
      unchangedConsensusObjects: execution.unchangedShared.map((object) => [addressBytes(object.id), { ReadOnlyRoot: [object.version, object.digest] }]),
      auxDataDigest: null
    }
  }).toBytes()
}

const coinOf = (object: LedgerObject | undefined) =>
  object !== undefined && object.data._tag === "Coin" && object.owner._tag === "Address"
    ? { address: object.owner.address, coinType: object.data.coinType, balance: object.data.balance }
    : undefined

/**
 * Net change per (owner, coin type) of the address-owned coins the transaction
 * changed and of the address balances it moved, zeros left out, in a stable
 * order (sui-types `derive_balance_changes_2` counts both).
 */
export const balanceChanges = (execution: Execution): ReadonlyArray<BalanceChange> => {
  const net = new Map<string, BalanceChange>()
  const add = (coin: ReturnType<typeof coinOf>, sign: bigint) => {
    if (coin === undefined) return
    const key = `${coin.address}|${coin.coinType}`
    const amount = (net.get(key)?.amount ?? 0n) + sign * coin.balance
    net.set(key, { address: coin.address, coinType: coin.coinType, amount })
  }
  for (const change of execution.changes) {
    add(coinOf(change.before), -1n)
    add(coinOf(change.after), 1n)
  }
  for (const change of execution.addressBalanceChanges) add({ address: change.address, coinType: change.coinType, balance: change.amount }, 1n)
  return [...net.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([, change]) => (change.amount === 0n ? [] : [change]))
}
