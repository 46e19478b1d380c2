import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import type { SuiAddress } from "@gateway/domain/SuiAddress"

export const SUI = CoinType.make(SUI_COIN_TYPE)

/** A seller's terms for a paid GET at `upstreamUrl` (the discard port on loopback by default): 1,000 MIST a call. */
export const terms = (name: string, payTo: SuiAddress, upstreamUrl = "http://127.0.0.1:9/x") => ({
  name,
  description: `${name}: one answer per call`,
  method: "GET" as const,
  path: "/x",
  price: PositiveAtomicAmount.make("1000"),
  asset: SUI,
  decimals: 9,
  payTo,
  upstreamUrl
})
