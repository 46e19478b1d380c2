import { assert, describe, it } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import { Transaction } from "@mysten/sui/transactions"
import type { SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { checkSponsoredTransaction } from "../verify/SponsoredTransaction.ts"
import { sponsoredTransactionData } from "./SponsoredTransactionData.ts"

const addr = (n: number) => `0x${n.toString(16).padStart(64, "0")}`
const PKG = addr(0x5e4d)
const PACKAGE: SpendAccountPackage = { originalId: PKG, publishedAt: PKG, registryId: addr(0x5e4e) }
const COIN = { objectId: addr(0x9a), version: "7", digest: "11111111111111111111111111111111" }

const revokeKind = () => {
  const tx = new Transaction()
  tx.moveCall({ target: `${PKG}::spend_account::revoke_grant`, arguments: [
    tx.sharedObjectRef({ objectId: addr(5), initialSharedVersion: "1", mutable: false }),
    tx.sharedObjectRef({ objectId: addr(4), initialSharedVersion: "1", mutable: true })
  ] })
  return tx.build({ onlyTransactionKind: true })
}

describe("the transaction data the sponsor builds", () => {
  it("pays from the one reserved coin at the given price and budget, expires with the epoch, and passes the sponsor's own rules", async () => {
    const gas = { sender: addr(1), sponsor: addr(2), coin: COIN, price: 1000n, budget: 7_000_000n, epoch: 12n }
    const bytes = sponsoredTransactionData(await revokeKind(), gas)
    const { V1 } = bcs.TransactionData.parse(bytes)
    assert.deepStrictEqual(V1.gasData.payment, [COIN])
    assert.strictEqual(V1.gasData.price, "1000")
    assert.strictEqual(V1.gasData.budget, "7000000")
    assert.deepStrictEqual(V1.expiration, { $kind: "Epoch", Epoch: 12 })
    const checked = checkSponsoredTransaction(bytes, { pkg: PACKAGE, sender: gas.sender, sponsor: gas.sponsor, gasBudgetMax: 50_000_000n, referenceGasPrice: 1000n })
    assert.deepStrictEqual(checked, { ok: true, function: "revoke_grant" })
    assert.deepStrictEqual(sponsoredTransactionData(await revokeKind(), gas), bytes, "the same inputs build the same bytes")
  })

  it("leaves the payment empty for a simulation", async () => {
    const bytes = sponsoredTransactionData(await revokeKind(), { sender: addr(1), sponsor: addr(2), coin: undefined, price: 1000n, budget: 1n, epoch: 0n })
    assert.deepStrictEqual(bcs.TransactionData.parse(bytes).V1.gasData.payment, [])
  })
})
