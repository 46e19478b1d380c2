import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"

export interface PureLayout<T> {
  parse(bytes: Uint8Array): T
  serialize(value: NoInfer<T>): { toBytes(): Uint8Array }
}

/**
 * One BCS value of `layout` with every byte consumed and canonically encoded,
 * as Sui decodes a pure argument; undefined for anything else. Never throws:
 * the bytes come from whoever signed the transaction.
 */
export const decodeExactly = <T>(layout: PureLayout<T>, bytes: Uint8Array): T | undefined => {
  try {
    const value = layout.parse(bytes)
    const again = layout.serialize(value).toBytes()
    return again.length === bytes.length && again.every((b, i) => b === bytes[i]) ? value : undefined
  } catch {
    return undefined
  }
}

export const u64Layout = bcs.u64()
export const u64VectorLayout = bcs.vector(bcs.u64())
export const byteVectorLayout = bcs.vector(bcs.u8())

/**
 * A pure argument as a recorded Move call shows it, by the parameter kind the
 * module describes: u64 as a decimal string, an address normalized, vectors
 * of u64 as strings, bytes as hex; null when the bytes are not that value.
 */
export const describePure = (kind: string, bytes: Uint8Array): string | ReadonlyArray<string> | null => {
  switch (kind) {
    case "u64":
      return decodeExactly(u64Layout, bytes) ?? null
    case "address": {
      const value = decodeExactly(bcs.Address, bytes)
      return value === undefined ? null : normalizeSuiAddress(value)
    }
    case "vector<u64>":
      return decodeExactly(u64VectorLayout, bytes)?.map(String) ?? null
    case "vector<u8>": {
      const value = decodeExactly(byteVectorLayout, bytes)
      return value === undefined ? null : toHex(Uint8Array.from(value))
    }
    default:
      return null
  }
}
