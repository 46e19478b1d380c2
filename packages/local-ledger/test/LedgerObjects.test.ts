import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { LedgerObject, Owner } from "../src/LedgerObject.ts"
import { LedgerObjects } from "../src/LedgerObjects.ts"
import { addr } from "./vectors/World.ts"

const OwnerArb: fc.Arbitrary<Owner> = fc.oneof(
  fc.nat({ max: 3 }).map((n): Owner => ({ _tag: "Address", address: addr(n + 1) })),
  fc.constant<Owner>({ _tag: "Shared", initialSharedVersion: 1n }),
  fc.constant<Owner>({ _tag: "Immutable" })
)

const Step = fc.oneof(
  fc.record({ op: fc.constant("set" as const), id: fc.nat({ max: 7 }), owner: OwnerArb, version: fc.bigInt({ min: 1n, max: 9n }) }),
  fc.record({ op: fc.constant("delete" as const), id: fc.nat({ max: 7 }) })
)

const object = (id: number, owner: Owner, version: bigint): LedgerObject => ({
  id: addr(0x100 + id),
  version,
  digest: `d${id}:${version}`,
  owner,
  createdBy: "c",
  previousTransaction: "p",
  storageRebate: 0n,
  data: { _tag: "Coin", coinType: "0x2::sui::SUI", balance: version }
})

describe("the ledger's objects", () => {
  it("list an owner's objects exactly as a scan of every object would, through writes, owner changes and deletes", () =>
    fc.assert(
      fc.property(fc.array(Step, { maxLength: 40 }), (steps) => {
        const objects = new LedgerObjects()
        const all = new Map<string, LedgerObject>()
        for (const step of steps) {
          if (step.op === "set") {
            const written = object(step.id, step.owner, step.version)
            objects.set(written)
            all.set(written.id, written)
          } else {
            objects.delete(addr(0x100 + step.id))
            all.delete(addr(0x100 + step.id))
          }
        }
        const byId = (a: LedgerObject, b: LedgerObject) => a.id.localeCompare(b.id)
        for (let n = 1; n <= 4; n++) {
          const scanned = [...all.values()].filter((o) => o.owner._tag === "Address" && o.owner.address === addr(n)).sort(byId)
          assert.deepStrictEqual([...objects.ownedBy(addr(n))].sort(byId), scanned)
        }
        for (let id = 0; id < 8; id++) assert.strictEqual(objects.get(addr(0x100 + id)), all.get(addr(0x100 + id)))
      })
    ))
})
