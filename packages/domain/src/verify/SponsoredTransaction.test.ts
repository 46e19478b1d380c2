import { assert, describe, it } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import { Transaction } from "@mysten/sui/transactions"
import type { SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { checkSponsoredKind, checkSponsoredTransaction, ownedInputIds, type SponsorRules } from "./SponsoredTransaction.ts"

const addr = (n: number) => `0x${n.toString(16).padStart(64, "0")}`
const PKG = addr(0x5e4d)
const PACKAGE: SpendAccountPackage = { originalId: PKG, publishedAt: PKG, registryId: addr(0x5e4e) }
const OWNER = addr(1)
const SPONSOR = addr(2)
const GRANT = addr(4)
const POOL = addr(3)
const GAS_COIN = addr(0x9a)
const OWNER_COIN = addr(0x9b)
const DIGEST = "11111111111111111111111111111111"
const COIN_TYPE = `${addr(0x77)}::usd::USD`
const RULES: SponsorRules = { pkg: PACKAGE, sender: OWNER, sponsor: SPONSOR, gasBudgetMax: 50_000_000n, referenceGasPrice: 1000n }
const SECOND_GAS_COIN = addr(0x9c)
const REGISTRY = PACKAGE.registryId

type Compose = (tx: Transaction) => void

const shared = (tx: Transaction, id: string) => tx.sharedObjectRef({ objectId: id, initialSharedVersion: "1", mutable: true })

const revoke: Compose = (tx) => {
  tx.moveCall({ target: `${PKG}::spend_account::revoke_grant`, arguments: [shared(tx, REGISTRY), shared(tx, GRANT)] })
}

const deposit: Compose = (tx) => {
  const [coin] = tx.splitCoins(tx.objectRef({ objectId: OWNER_COIN, version: "2", digest: DIGEST }), [tx.pure.u64(5)])
  if (coin === undefined) throw new Error("no split")
  tx.moveCall({ target: `${PKG}::spend_account::deposit`, typeArguments: [COIN_TYPE], arguments: [shared(tx, REGISTRY), shared(tx, POOL), coin] })
}

/** Sponsored transaction data as the gateway builds it, with whatever the test changes. */
const sponsored = (
  compose: Compose,
  gas: { sender?: string; owner?: string; budget?: bigint; price?: bigint; payment?: ReadonlyArray<string> } = {}
) => {
  const tx = new Transaction()
  tx.setSender(gas.sender ?? OWNER)
  tx.setGasOwner(gas.owner ?? SPONSOR)
  tx.setGasPrice(gas.price ?? RULES.referenceGasPrice)
  tx.setGasBudget(gas.budget ?? 10_000_000n)
  tx.setGasPayment((gas.payment ?? [GAS_COIN]).map((objectId) => ({ objectId, version: "3", digest: DIGEST })))
  compose(tx)
  return tx.build()
}

const kindOf = (compose: Compose) => {
  const tx = new Transaction()
  tx.setSender(OWNER)
  compose(tx)
  return tx.build({ onlyTransactionKind: true })
}

const refused = async (bytes: Promise<Uint8Array>, reason: RegExp) => {
  const check = checkSponsoredTransaction(await bytes, RULES)
  assert.isFalse(check.ok)
  assert.match(check.ok ? "" : check.reason, reason)
}

describe("sponsored transactions", () => {
  it("accepts a grant call and a funding from the owner's own coin", async () => {
    assert.deepStrictEqual(checkSponsoredTransaction(await sponsored(revoke), RULES), { ok: true, function: "revoke_grant" })
    assert.deepStrictEqual(checkSponsoredTransaction(await sponsored(deposit), RULES), { ok: true, function: "deposit" })
    assert.deepStrictEqual(checkSponsoredKind(await kindOf(revoke), PACKAGE), { ok: true, function: "revoke_grant" })
  })

  it("accepts a withdrawal that transfers the returned coin, and refuses one that moves anything else", async () => {
    const withdrawn = (tx: Transaction) =>
      tx.moveCall({ target: `${PKG}::spend_account::withdraw`, typeArguments: [COIN_TYPE], arguments: [shared(tx, REGISTRY), shared(tx, POOL), tx.pure.u64(5)] })
    assert.deepStrictEqual(
      checkSponsoredTransaction(await sponsored((tx) => tx.transferObjects([withdrawn(tx)], OWNER)), RULES),
      { ok: true, function: "withdraw" }
    )
    await refused(sponsored((tx) => {
      withdrawn(tx)
      tx.transferObjects([tx.gas], OWNER)
    }), /^commands.1: only the withdrawn coin/)
    await refused(sponsored((tx) => {
      const [coin] = tx.splitCoins(tx.objectRef({ objectId: OWNER_COIN, version: "2", digest: DIGEST }), [tx.pure.u64(5)])
      if (coin === undefined) throw new Error("no split")
      withdrawn(tx)
      tx.transferObjects([coin], OWNER)
    }), /./)
    // An empty coin, sent anywhere, is an object the sponsor would pay to store.
    await refused(sponsored((tx) => {
      const [coin] = tx.moveCall({
        target: `${PKG}::spend_account::withdraw`,
        typeArguments: [COIN_TYPE],
        arguments: [shared(tx, REGISTRY), shared(tx, POOL), tx.pure.u64(0)]
      })
      if (coin !== undefined) tx.transferObjects([coin], addr(0x66))
    }), /^arguments.2: a withdrawal of nothing/)
  })

  it("refuses an input that is neither pure nor an object: a funds withdrawal would draw on the sponsor's address balance", async () => {
    const kind = bcs.TransactionKind.parse(await kindOf(revoke))
    if (kind.$kind !== "ProgrammableTransaction") return assert.fail("not a programmable transaction")
    const ptb = kind.ProgrammableTransaction
    const withdrawal = { FundsWithdrawal: { reservation: { MaxAmountU64: "1000" }, typeArg: { Balance: "0x2::sui::SUI" }, withdrawFrom: { Sponsor: true } } }
    const bytes = bcs.TransactionKind.serialize({ ProgrammableTransaction: { inputs: [...ptb.inputs, withdrawal], commands: ptb.commands } }).toBytes()
    const check = checkSponsoredKind(bytes, PACKAGE)
    assert.isFalse(check.ok)
    assert.match(check.ok ? "" : check.reason, /^inputs.2: only pure values and objects/)
  })

  it("refuses another sender, another gas owner, a budget over the cap", async () => {
    await refused(sponsored(revoke, { sender: addr(0x66) }), /^sender/)
    await refused(sponsored(revoke, { owner: OWNER }), /^gasData.owner/)
    await refused(sponsored(revoke, { budget: RULES.gasBudgetMax + 1n }), /^gasData.budget/)
  })

  it("refuses a gas price other than the reference one, and more than one gas coin (the chain would merge them)", async () => {
    await refused(sponsored(revoke, { price: 45n * RULES.referenceGasPrice }), /^gasData.price/)
    await refused(sponsored(revoke, { price: RULES.referenceGasPrice + 1n }), /^gasData.price/)
    await refused(sponsored(revoke, { payment: [GAS_COIN, SECOND_GAS_COIN] }), /^gasData.payment: 2 coins/)
  })

  it("refuses a transfer of the gas coin, or any command beside the call", async () => {
    await refused(sponsored((tx) => {
      revoke(tx)
      tx.transferObjects([tx.gas], addr(0x66))
    }), /^commands/)
    await refused(sponsored((tx) => {
      const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(5)])
      if (coin !== undefined) tx.transferObjects([coin], addr(0x66))
      revoke(tx)
    }), /^commands/)
    await refused(sponsored((tx) => {
      revoke(tx)
      revoke(tx)
    }), /./)
  })

  it("refuses funding split from the gas coin, and a gas coin that is also an input", async () => {
    await refused(sponsored((tx) => {
      const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(5)])
      if (coin === undefined) throw new Error("no split")
      tx.moveCall({ target: `${PKG}::spend_account::deposit`, typeArguments: [COIN_TYPE], arguments: [shared(tx, REGISTRY), shared(tx, POOL), coin] })
    }), /gas coin/)
    await refused(sponsored(deposit, { payment: [OWNER_COIN] }), /^inputs/)
  })

  it("refuses another package, another module, the agent's pay and the gas coin as an argument", async () => {
    await refused(sponsored((tx) => {
      tx.moveCall({ target: `${addr(0x66)}::spend_account::revoke_grant`, arguments: [shared(tx, REGISTRY), shared(tx, GRANT)] })
    }), /^package/)
    await refused(sponsored((tx) => {
      tx.moveCall({ target: `${PKG}::other::revoke_grant`, arguments: [shared(tx, REGISTRY), shared(tx, GRANT)] })
    }), /^module/)
    await refused(sponsored((tx) => {
      tx.moveCall({
        target: `${PKG}::spend_account::pay`,
        typeArguments: [COIN_TYPE],
        arguments: [shared(tx, REGISTRY), shared(tx, GRANT), shared(tx, POOL), tx.pure.u64(1), tx.pure.address(OWNER), tx.pure.vector("u8", []), tx.object.clock()]
      })
    }), /^function/)
    await refused(sponsored((tx) => {
      tx.moveCall({ target: `${PKG}::spend_account::revoke_grant`, arguments: [tx.gas] })
    }), /^arguments/)
    await refused(sponsored((tx) => {
      tx.moveCall({ target: `${PKG}::spend_account::revoke_grant`, arguments: [tx.objectRef({ objectId: OWNER_COIN, version: "2", digest: DIGEST })] })
    }), /^arguments/)
  })

  it("names the owned objects a kind takes, so the chain can be asked whose they are", async () => {
    assert.deepStrictEqual(ownedInputIds(await kindOf(deposit)), [OWNER_COIN])
    assert.deepStrictEqual(ownedInputIds(await kindOf(revoke)), [])
  })

  it("refuses bytes that are not transaction data or not a kind", () => {
    assert.isFalse(checkSponsoredTransaction(new Uint8Array([1, 2, 3]), RULES).ok)
    assert.isFalse(checkSponsoredKind(new Uint8Array([9, 9]), PACKAGE).ok)
  })
})
