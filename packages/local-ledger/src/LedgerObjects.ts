import type { ObjectReader } from "./Execution.ts"
import type { LedgerObject } from "./LedgerObject.ts"

/**
 * The ledger's current objects by id, and by address owner: gas selection
 * and owned-object listings read one owner's objects, which a scan of every
 * object made cost as much as the whole ledger.
 */
export class LedgerObjects implements ObjectReader {
  private readonly byId = new Map<string, LedgerObject>()
  private readonly byOwner = new Map<string, Set<string>>()

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
}
