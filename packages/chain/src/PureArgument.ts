import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"

/**
 * A pure argument's layout: how to decode it, and how long the one canonical
 * encoding of a value is. Every layout here is fixed-width values behind at
 * most one ULEB128 length, which is what makes that length exact.
 */
export interface PureLayout<T> {
  parse(bytes: Uint8Array): T
  encodedLength(value: T): number
}

/**
 * One BCS value of `layout` with every byte consumed and canonically encoded,
 * as Sui decodes a pure argument; undefined for anything else. Never throws:
 * the bytes come from whoever signed the transaction. The decoder refuses an
 * overlong ULEB128 length and fixed-width values have one encoding each, so
 * bytes exactly as long as the value's canonical encoding are that encoding:
 * no re-serialization is needed to tell.
 */
export const decodeExactly = <T>(layout: PureLayout<T>, bytes: Uint8Array): T | undefined => {
  try {
    const value = layout.parse(bytes)
    return layout.encodedLength(value) === bytes.length ? value : undefined
  } catch {
    return undefined
  }
}

/** Bytes in the ULEB128 encoding of `n`. */
const ulebLength = (n: number) => {
  let length = 1
  for (let rest = Math.floor(n / 128); rest > 0; rest = Math.floor(rest / 128)) length += 1
  return length
}

const u64 = bcs.u64()
const u64Vector = bcs.vector(bcs.u64())
const byteVector = bcs.vector(bcs.u8())
const addressVector = bcs.vector(bcs.Address)

export const u64Layout: PureLayout<string> = { parse: (bytes) => u64.parse(bytes), encodedLength: () => 8 }
export const u8Layout: PureLayout<number> = { parse: (bytes) => bcs.u8().parse(bytes), encodedLength: () => 1 }
export const addressVectorLayout: PureLayout<ReadonlyArray<string>> = {
  parse: (bytes) => addressVector.parse(bytes),
  encodedLength: (values) => ulebLength(values.length) + 32 * values.length
}
export const addressLayout: PureLayout<string> = { parse: (bytes) => bcs.Address.parse(bytes), encodedLength: () => 32 }
export const u64VectorLayout: PureLayout<ReadonlyArray<string>> = {
  parse: (bytes) => u64Vector.parse(bytes),
  encodedLength: (values) => ulebLength(values.length) + 8 * values.length
}
export const byteVectorLayout: PureLayout<ReadonlyArray<number>> = {
  parse: (bytes) => byteVector.parse(bytes),
  encodedLength: (values) => ulebLength(values.length) + values.length
}

/**
 * A pure argument as a recorded Move call shows it, by the parameter kind the
 * module describes: u64 as a decimal string, an address normalized, vectors
 * of u64 as strings, bytes as hex; null when the bytes are not that value.
 */
export const describePure = (kind: string, bytes: Uint8Array): string | ReadonlyArray<string> | null => {
  switch (kind) {
    case "u64":
      return decodeExactly(u64Layout, bytes) ?? null
    case "u8": {
      const value = decodeExactly(u8Layout, bytes)
      return value === undefined ? null : String(value)
    }
    case "address": {
      const value = decodeExactly(addressLayout, bytes)
      return value === undefined ? null : normalizeSuiAddress(value)
    }
    case "vector<u64>":
      return decodeExactly(u64VectorLayout, bytes)?.map(String) ?? null
    case "vector<address>":
      return decodeExactly(addressVectorLayout, bytes)?.map((a) => normalizeSuiAddress(a)) ?? null
    case "vector<u8>": {
      const value = decodeExactly(byteVectorLayout, bytes)
      return value === undefined ? null : toHex(Uint8Array.from(value))
    }
    default:
      return null
  }
}
