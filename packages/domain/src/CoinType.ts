import { Schema } from "effect"

/** A fully qualified coin type `<package>::<module>::<type>`, e.g. `0x2::sui::SUI`. */
export const CoinType = Schema.String.pipe(
  Schema.check(
    Schema.isMaxLength(300),
    Schema.isPattern(/^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/, {
      expected: "a coin type of the form <package>::<module>::<type>"
    })
  ),
  Schema.brand("CoinType")
)
export type CoinType = typeof CoinType.Type
