/// <reference lib="dom" />
import { h } from "./Dom.ts"
import { toDisplay } from "./DisplayAmount.ts"

/** `0x2::sui::SUI` → `SUI`: the coin's name, with its full type kept for the title. */
export const coinName = (coinType: string) => coinType.split("::").pop() ?? coinType

export const coinLabel = (coinType: string) => h("abbr", { title: coinType }, coinName(coinType))

/** An atomic amount in display units when the coin's decimals are known, always with the exact atomic value beside it. */
export const amountText = (atomic: string, decimals: number | null, coinType: string) =>
  decimals === null
    ? `${atomic} atomic ${coinName(coinType)}`
    : `${toDisplay(atomic, decimals)} ${coinName(coinType)} (${atomic} atomic)`
