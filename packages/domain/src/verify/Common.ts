import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainEvent, ChainTransaction } from "../chain/ChainTransaction.ts"
import { type EventName, type FunctionName, MODULE } from "../chain/SpendAccountModule.ts"
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

/** The transaction must call one of `functions` of this package's module. */
export const calls = (tx: ChainTransaction, packageId: string, functions: ReadonlyArray<FunctionName>) =>
  tx.calls.some((c) => sameAddress(c.package, packageId) && c.module === MODULE && functions.some((f) => f === c.function))
    ? Effect.void
    : Effect.fail(unverified("target", `no call to ${packageId}::${MODULE}::${functions.join("|")}`))

/** The BCS contents of every event of this type, decoded with the module's layout. */
export const eventsOf = <T>(
  tx: ChainTransaction,
  packageId: string,
  name: EventName,
  layout: { readonly parse: (bytes: Uint8Array) => T }
): ReadonlyArray<T> =>
  tx.events
    .filter((e: ChainEvent) => {
      const [pkg, mod, ev] = e.type.split("::")
      return pkg !== undefined && sameAddress(pkg, packageId) && mod === MODULE && ev === name
    })
    .map((e) => layout.parse(fromBase64(e.bcs)))

export const exactlyOne = <A>(events: ReadonlyArray<A>, name: EventName) => {
  const [first, ...rest] = events
  if (first === undefined) return Effect.fail(unverified("event", `missing ${name}`))
  if (rest.length > 0) return Effect.fail(unverified("event", `more than one ${name}`))
  return Effect.succeed(first)
}
