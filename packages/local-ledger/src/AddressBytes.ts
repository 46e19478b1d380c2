import { normalizeSuiAddress } from "@mysten/sui/utils"

const ADDRESS_LENGTH = 32

/**
 * An address as the 32 bytes BCS writes, for the SDK's `bcs.Address`: given a
 * string it parses the hex with a regex per field, which made most of the cost
 * of serializing an object. Anything that does not decode to 32 bytes is
 * passed on as it was, so the SDK refuses it in its own words.
 */
export const addressBytes = (address: string): Uint8Array | string => {
  const bytes = Buffer.from(normalizeSuiAddress(address).slice(2), "hex")
  return bytes.length === ADDRESS_LENGTH ? bytes : address
}
