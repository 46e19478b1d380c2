import { Schema } from "effect"

export const U64_MAX = 18446744073709551615n

/**
 * Atomic amounts travel as decimal strings, never JS numbers: no sign, no
 * fraction, no leading zeros, at most u64. The example sits on the string: an annotation on the branded
 * schema would land on its last check, which the JSON Schema omits. The `u` flag lets the pattern into the JSON
 * Schema (effect exports only Unicode-mode patterns).
 */
export const AtomicAmount = Schema.String.annotate({
  examples: ["1000"],
  // A JSON number here (`25000`) would otherwise get a bare "Expected string".
  message: "Expected a whole number of atomic units as a decimal string in quotes, e.g. \"1000\", not the number 1000 (JSON numbers lose precision above 2^53)"
}).pipe(
  Schema.check(
    // Sellers and agents often write whole coins ("0.001"): the example says what the unit is.
    Schema.isPattern(/^(0|[1-9][0-9]{0,19})$/u, {
      expected: "a whole number of atomic units as a decimal string, e.g. \"1000\" = 0.000001 SUI at 9 decimals (not a fraction such as \"0.001\")"
    }),
    // Decoding with `errors: "all"` runs this check even after the pattern failed: only digits reach BigInt.
    Schema.makeFilter((s: string) => !/^[0-9]+$/.test(s) || BigInt(s) <= U64_MAX || "exceeds the u64 maximum 18446744073709551615")
  ),
  Schema.brand("AtomicAmount")
)
export type AtomicAmount = typeof AtomicAmount.Type

/** An amount that must move something: greater than zero. */
export const PositiveAtomicAmount = AtomicAmount.pipe(
  Schema.check(Schema.makeFilter((s: string) => s !== "0" || "must be greater than 0"))
)

export const atomic = (n: bigint): AtomicAmount => AtomicAmount.make(n.toString())
