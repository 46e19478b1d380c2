import { Schema } from "effect"

/**
 * A fully qualified coin type `<package>::<module>::<type>`, e.g. `0x2::sui::SUI`. The example sits on the string:
 * an annotation on the branded schema would land on the brand check, which the JSON Schema omits. The `u` flag lets
 * the pattern into the JSON Schema (effect exports only Unicode-mode patterns).
 */
export const CoinType = Schema.String.annotate({ examples: ["0x2::sui::SUI"] }).pipe(
  Schema.check(
    Schema.isMaxLength(300),
    Schema.isPattern(/^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/u, {
      expected: "a coin type of the form <package>::<module>::<type>"
    })
  ),
  Schema.brand("CoinType")
)
export type CoinType = typeof CoinType.Type
