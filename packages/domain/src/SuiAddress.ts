import { Schema } from "effect"

/**
 * A full 32-byte Sui address in its canonical lowercase form. The example sits on the string itself: an annotation
 * on the branded schema lands on the brand check, which the JSON Schema leaves out. The `u` flag lets the pattern
 * into the JSON Schema: effect exports only patterns with Unicode semantics, the dialect JSON Schema uses.
 */
export const SuiAddress = Schema.String.annotate({ examples: ["0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d"] }).pipe(
  Schema.check(Schema.isPattern(/^0x[0-9a-f]{64}$/u, { expected: "a Sui address: 0x and 64 lowercase hex digits" })),
  Schema.brand("SuiAddress")
)
export type SuiAddress = typeof SuiAddress.Type

/** A Sui object id has the same form as an address. */
export const ObjectId = SuiAddress
export type ObjectId = SuiAddress
