import { normalizeSuiAddress } from "@mysten/sui/utils"
import { type AddressBalanceChange, addressBalanceKey } from "./execute/AddressBalances.ts"
import type { ObjectReader } from "./Execution.ts"
import type { LedgerObject } from "./LedgerObject.ts"

/**
 * The ledger's current objects by id, and by address owner: gas selection
 * and owned-object listings read one owner's objects, which a scan of every
 * object made cost as much as the whole ledger. Beside them, the address
 * balances (Sui's funds accumulator under `0xacc`): one value per
 * (address, coin type), settled as each transaction commits.
 */
export class LedgerObjects implements ObjectReader {
  private readonly byId = new Map<string, LedgerObject>()
  private readonly byOwner = new Map<string, Set<string>>()
  private readonly balances = new Map<string, bigint>()

  get(id: string): LedgerObject | undefined {
    return this.byId.get(id)
  }

  has(id: string): boolean {
    return this.byId.has(id)
  }

  set(object: LedgerObject): void {
    this.delete(object.id)
    this.byId.set(object.id, object)
    if (object.owner._tag !== "Address") return
    const owned = this.byOwner.get(object.owner.address) ?? new Set<string>()
    owned.add(object.id)
    this.byOwner.set(object.owner.address, owned)
  }

  delete(id: string): void {
    const object = this.byId.get(id)
    if (object === undefined) return
    this.byId.delete(id)
    if (object.owner._tag !== "Address") return
    const owned = this.byOwner.get(object.owner.address)
    owned?.delete(id)
    if (owned?.size === 0) this.byOwner.delete(object.owner.address)
  }

  /** The objects `address` owns, in no particular order. */
  ownedBy(address: string): ReadonlyArray<LedgerObject> {
    return [...(this.byOwner.get(address) ?? [])].flatMap((id) => {
      const object = this.byId.get(id)
      return object === undefined ? [] : [object]
    })
  }

  /** What `address` holds of `coinType` in its address balance; 0 when it never held any. */
  addressBalance(address: string, coinType: string): bigint {
    return this.balances.get(addressBalanceKey(address, coinType)) ?? 0n
  }

  /** Every coin type `address` holds in its address balance, with the amount (none at 0). */
  addressBalancesOf(address: string): ReadonlyMap<string, bigint> {
    const prefix = `${normalizeSuiAddress(address)}|`
    const held = new Map<string, bigint>()
    for (const [key, amount] of this.balances) if (key.startsWith(prefix) && amount > 0n) held.set(key.slice(prefix.length), amount)
    return held
  }

  /** Settles a committed transaction's accumulator writes; admission has made sure none goes below zero. */
  settle(changes: ReadonlyArray<AddressBalanceChange>): void {
    for (const change of changes) {
      const key = addressBalanceKey(change.address, change.coinType)
      const amount = (this.balances.get(key) ?? 0n) + change.amount
      if (amount === 0n) this.balances.delete(key)
      else this.balances.set(key, amount)
    }
  }
}
