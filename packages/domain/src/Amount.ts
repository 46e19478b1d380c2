import { Schema } from "effect"

export const U64_MAX = 18446744073709551615n

/**
 * Atomic amounts travel as decimal strings, never JS numbers: no sign, no
 * fraction, no leading zeros, at most u64.
 */
export const AtomicAmount = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^(0|[1-9][0-9]{0,19})$/, { expected: "a decimal string of atomic units" }),
    Schema.makeFilter((s: string) => BigInt(s) <= U64_MAX || "exceeds the u64 maximum 18446744073709551615")
  ),
  Schema.brand("AtomicAmount")
)
export type AtomicAmount = typeof AtomicAmount.Type

/** An amount that must move something: greater than zero. */
export const PositiveAtomicAmount = AtomicAmount.pipe(
  Schema.check(Schema.makeFilter((s: string) => s !== "0" || "must be greater than 0"))
)

export const atomic = (n: bigint): AtomicAmount => AtomicAmount.make(n.toString())
