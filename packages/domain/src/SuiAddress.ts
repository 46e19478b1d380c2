import { Schema } from "effect"

/** A full 32-byte Sui address in its canonical lowercase form. */
export const SuiAddress = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^0x[0-9a-f]{64}$/, { expected: "a Sui address: 0x and 64 lowercase hex digits" })),
  Schema.brand("SuiAddress")
)
export type SuiAddress = typeof SuiAddress.Type

/** A Sui object id has the same form as an address. */
export const ObjectId = SuiAddress
export type ObjectId = SuiAddress
