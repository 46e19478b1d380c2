import { bcs, TypeTagSerializer } from "@mysten/sui/bcs"
import { deriveDynamicFieldID, normalizeSuiAddress } from "@mysten/sui/utils"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"

/**
 * One movement of an address balance (Sui's accumulator event on
 * `Balance<coinType>` of `address`): a deposit (`send_funds`, Merge) when
 * positive, a withdrawal (`redeem_funds`, a gas charge: Split) when negative.
 */
export interface AddressBalanceChange {
  readonly address: string
  readonly coinType: string
  readonly amount: bigint
}

/** What a transaction may read of address balances: the settled value of (address, coin type), 0 when none. */
export type AddressBalanceReader = (address: string, coinType: string) => bigint

/** The key an address balance is kept under: its owner and coin type, normalized. */
export const addressBalanceKey = (address: string, coinType: string) => `${normalizeSuiAddress(address)}|${normalizeCoinType(coinType)}`

/** Sui's root accumulator object (`SUI_ACCUMULATOR_ROOT_OBJECT_ID`), under which every balance is a dynamic field. */
const ACCUMULATOR_ROOT = normalizeSuiAddress("0xacc")

/**
 * The id of the accumulator object of (address, `Balance<coinType>`), as
 * effects name it: the dynamic field of `0x2::accumulator::Key<Balance<T>>`
 * keyed by the address under `0xacc` (sui-types `AccumulatorValue::get_field_id`;
 * the SDK's `utils/coin-reservation.ts` derives it the same way).
 */
export const accumulatorObjectId = (address: string, coinType: string): string =>
  deriveDynamicFieldID(
    ACCUMULATOR_ROOT,
    TypeTagSerializer.parseFromStr(`0x2::accumulator::Key<0x2::balance::Balance<${normalizeCoinType(coinType)}>>`, true),
    bcs.Address.serialize(normalizeSuiAddress(address)).toBytes()
  )

/** Net change per (address, coin type), zeros left out, in a stable order: how effects record a transaction's accumulator writes. */
export const netAddressBalanceChanges = (changes: ReadonlyArray<AddressBalanceChange>): ReadonlyArray<AddressBalanceChange> => {
  const net = new Map<string, AddressBalanceChange>()
  for (const change of changes) {
    const key = addressBalanceKey(change.address, change.coinType)
    const amount = (net.get(key)?.amount ?? 0n) + change.amount
    net.set(key, { address: normalizeSuiAddress(change.address), coinType: normalizeCoinType(change.coinType), amount })
  }
  return [...net.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([, change]) => (change.amount === 0n ? [] : [change]))
}
