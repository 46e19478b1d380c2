import { parseStructTag } from "@mysten/sui/utils"
import { Schema } from "effect"

/**
 * A coin type's metadata as `coin::create_currency` publishes it and a node's
 * `GetCoinInfo` answers it: fixed once published (this ledger models no
 * MetadataCap to update it).
 */
export const CoinMetadata = Schema.Struct({
  decimals: Schema.Number,
  name: Schema.String,
  symbol: Schema.String,
  description: Schema.String,
  iconUrl: Schema.String
})
export type CoinMetadata = typeof CoinMetadata.Type

/** What a `mint` may say of its coin type's metadata: the decimals, and any of the rest. */
export type CoinMetadataInput = Pick<CoinMetadata, "decimals"> & Partial<Omit<CoinMetadata, "decimals">>

/** SUI's, as mainnet's `0x2::sui::SUI` metadata reads. */
export const SUI_METADATA: CoinMetadata = { decimals: 9, name: "Sui", symbol: "SUI", description: "", iconUrl: "" }

/** Why Sui could not publish these decimals (a `u8` on chain), if it could not. */
export const decimalsRefusal = (decimals: number): string | undefined =>
  Number.isInteger(decimals) && decimals >= 0 && decimals <= 255 ? undefined : `decimals must be a u8, not ${decimals}`

/**
 * The metadata as published for `coinType`: what is given, the name and
 * symbol otherwise the type's own name (as a currency's one-time witness
 * usually names both), description and icon empty.
 */
export const publishedMetadata = (coinType: string, given: CoinMetadataInput): CoinMetadata => {
  const typeName = parseStructTag(coinType).name
  return {
    decimals: given.decimals,
    name: given.name ?? typeName,
    symbol: given.symbol ?? typeName,
    description: given.description ?? "",
    iconUrl: given.iconUrl ?? ""
  }
}

export const sameMetadata = (a: CoinMetadata, b: CoinMetadata): boolean =>
  a.decimals === b.decimals && a.name === b.name && a.symbol === b.symbol && a.description === b.description && a.iconUrl === b.iconUrl
