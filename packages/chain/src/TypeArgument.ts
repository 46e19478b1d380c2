import { normalizeStructTag } from "@mysten/sui/utils"

/**
 * A Move type argument as the chain writes it: a struct tag normalized as
 * `normalizeStructTag` does (coin types compare equal to it), any other type
 * (`u64`, `vector<u8>`) or a string that parses as no type exactly as given.
 * Never throws: a type argument comes from whoever signed the transaction.
 */
export const normalizeTypeArgument = (type: string): string => {
  try {
    return normalizeStructTag(type)
  } catch {
    return type
  }
}
