import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainEvent, ChainTransaction } from "../chain/ChainTransaction.ts"
import { type EventName, Events, type FunctionName, MODULE, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { ForeignDigest, NotFinal, TxFailed, Unverified } from "../Errors.ts"

export const unverified = (field: string, detail: string) =>
  new Unverified({ message: "The transaction does not match what was prepared", reason: `${field}: ${detail}` })

export const sameAddress = (a: string, b: string) => normalizeSuiAddress(a) === normalizeSuiAddress(b)

/**
 * The checks every verifier starts with, in this order: the transaction is
 * final, it was sent by whom it must be, and it succeeded.
 */
export const finalFrom = (tx: ChainTransaction, sender: string) => {
  if (tx.checkpoint === null) {
    return Effect.fail(new NotFinal({ message: "The transaction is not final yet", reason: "not_checkpointed" }))
  }
  if (!sameAddress(tx.sender, sender)) {
    return Effect.fail(new ForeignDigest({ message: "The transaction was sent by someone else", reason: `sender: expected ${sender}, got ${tx.sender}` }))
  }
  if (tx.status === "failure") {
    return Effect.fail(new TxFailed({ message: "The transaction failed on chain", reason: tx.error ?? "failure" }))
  }
  return Effect.void
}

const isEventName = (name: string): name is EventName => Object.hasOwn(Events, name)

/** The module's event name of `event` when this package's module emitted it: events keep the original id across upgrades. */
const moduleEventName = (event: ChainEvent, pkg: SpendAccountPackage): EventName | undefined => {
  const [address, mod, name] = event.type.split("::")
  return address !== undefined && sameAddress(address, pkg.originalId) && mod === MODULE && name !== undefined && isEventName(name) ? name : undefined
}

/** A call into this package: to the version in use (published-at) or, before any upgrade, the same original id. */
const callsPackage = (address: string, pkg: SpendAccountPackage) => sameAddress(address, pkg.publishedAt) || sameAddress(address, pkg.originalId)

/** The event's BCS contents decoded with `layout`, or undefined when they are not one such value. */
const decoded = <T>(event: ChainEvent, layout: { readonly parse: (bytes: Uint8Array) => T }): T | undefined => {
  try {
    return layout.parse(fromBase64(event.bcs))
  } catch {
    return undefined
  }
}

/**
 * The transaction must call one of `functions` of this package's module, and
 * every event it reports from the module must decode with the module's
 * layout: Move always emits well-formed events, so one that does not is a
 * report not to be trusted. Every verifier makes this check before judging
 * events, which is why `eventsOf` may leave malformed ones out.
 */
export const calls = (tx: ChainTransaction, pkg: SpendAccountPackage, functions: ReadonlyArray<FunctionName>) => {
  if (!tx.calls.some((c) => callsPackage(c.package, pkg) && c.module === MODULE && functions.some((f) => f === c.function))) {
    return Effect.fail(unverified("target", `no call to ${pkg.publishedAt}::${MODULE}::${functions.join("|")}`))
  }
  for (const event of tx.events) {
    const name = moduleEventName(event, pkg)
    if (name !== undefined && decoded<unknown>(event, Events[name]) === undefined) return Effect.fail(unverified("event", `malformed ${name}`))
  }
  return Effect.void
}

/** The BCS contents of every event of this type, decoded with the module's layout; malformed ones (see `calls`) are left out. */
export const eventsOf = <T>(
  tx: Pick<ChainTransaction, "events">,
  pkg: SpendAccountPackage,
  name: EventName,
  layout: { readonly parse: (bytes: Uint8Array) => T }
): ReadonlyArray<T> =>
  tx.events
    .filter((e) => moduleEventName(e, pkg) === name)
    .flatMap((e) => {
      const value = decoded(e, layout)
      return value === undefined ? [] : [value]
    })

export const exactlyOne = <A>(events: ReadonlyArray<A>, name: EventName) => {
  const [first, ...rest] = events
  if (first === undefined) return Effect.fail(unverified("event", `missing ${name}`))
  if (rest.length > 0) return Effect.fail(unverified("event", `more than one ${name}`))
  return Effect.succeed(first)
}
