import { assert, describe, it } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import { Transaction } from "@mysten/sui/transactions"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { checkPaymentKind, readPaymentTransaction } from "./PaymentTransaction.ts"

const pkg = { originalId: normalizeSuiAddress("0xa1"), publishedAt: normalizeSuiAddress("0xa1"), registryId: normalizeSuiAddress("0xb1") }
const AGENT = normalizeSuiAddress("0xa9e47")
const SPONSOR = normalizeSuiAddress("0x5905")
const PAY_TO = normalizeSuiAddress("0x5e11e4")
const SUI = "0x2::sui::SUI"
const digest = "11111111111111111111111111111111"

const shared = (tx: Transaction, id: string, mutable: boolean) => tx.sharedObjectRef({ objectId: id, initialSharedVersion: 1, mutable })

/** A grant payment as the SDK builds it, with `extra` commands or argument changes to make it hostile. */
const payKind = async (change: { registry?: string; amount?: bigint; extra?: (tx: Transaction) => void } = {}) => {
  const tx = new Transaction()
  tx.moveCall({
    target: `${pkg.publishedAt}::spend_account::pay`,
    typeArguments: [SUI],
    arguments: [
      shared(tx, change.registry ?? pkg.registryId, false),
      shared(tx, "0xc1", true),
      shared(tx, "0xd1", true),
      tx.pure.u64(change.amount ?? 40n),
      tx.pure.address(PAY_TO),
      tx.pure.vector("u8", [...new TextEncoder().encode("nonce-1")]),
      shared(tx, "0x6", false)
    ]
  })
  change.extra?.(tx)
  return tx.build({ onlyTransactionKind: true })
}

const transferKind = async (build: (tx: Transaction) => void) => {
  const tx = new Transaction()
  build(tx)
  return tx.build({ onlyTransactionKind: true })
}

/** Whole transaction data around a kind, with this gas owner, gas coin and expiration. */
const dataOf = (kindBytes: Uint8Array, gas: { owner: string; coinId?: string; epoch?: string | null }) =>
  bcs.TransactionData.serialize({
    V1: {
      kind: bcs.TransactionKind.parse(kindBytes),
      sender: AGENT,
      gasData: { payment: [{ objectId: gas.coinId ?? "0xfeed", version: "3", digest }], owner: gas.owner, price: 1000n, budget: 5_000_000n },
      expiration: gas.epoch === null ? { None: true } : { Epoch: gas.epoch ?? "7" }
    }
  }).toBytes()

describe("the payments a sign-first transaction may hold", () => {
  it("reads a grant payment's terms from its own arguments", async () => {
    const read = readPaymentTransaction(dataOf(await payKind(), { owner: SPONSOR }), pkg)
    assert.isTrue(read.ok)
    if (!read.ok) return
    assert.deepInclude(read.value, { sender: AGENT, gasOwner: SPONSOR, expiration: { _tag: "Epoch", epoch: 7n } })
    assert.deepInclude(read.value.shape, { _tag: "GrantPayment", amount: 40n, recipient: PAY_TO, grantObjectId: normalizeSuiAddress("0xc1") })
  })

  it("refuses a grant payment with a second command, another registry, or no expiration's end", async () => {
    const second = checkPaymentKind(await payKind({ extra: (tx) => tx.transferObjects([tx.gas], PAY_TO) }), pkg)
    assert.deepStrictEqual(second, { ok: false, reason: "commands: a grant payment is exactly one call to spend_account::pay" })
    const registry = checkPaymentKind(await payKind({ registry: "0xbad" }), pkg)
    assert.isFalse(registry.ok)
    const none = readPaymentTransaction(dataOf(await payKind(), { owner: SPONSOR, epoch: null }), pkg)
    assert.deepInclude(none, { ok: true })
    if (none.ok) assert.deepStrictEqual(none.value.expiration, { _tag: "None" })
  })

  it("accepts a plain transfer of coin commands, and refuses the sponsor's gas coin, another package's call, or a shared object", async () => {
    const fromGas = await transferKind((tx) => tx.transferObjects([tx.splitCoins(tx.gas, [40n])], PAY_TO))
    assert.isTrue(readPaymentTransaction(dataOf(fromGas, { owner: AGENT }), pkg).ok, "the payer's own gas coin may fund it")
    const sponsoredGas = readPaymentTransaction(dataOf(fromGas, { owner: SPONSOR }), pkg)
    assert.deepStrictEqual(sponsoredGas, { ok: false, reason: "commands.0: uses the gas coin, which is the sponsor's" })
    assert.isFalse(checkPaymentKind(fromGas, pkg).ok, "the gas station never sponsors a use of the gas coin")
    const otherCall = checkPaymentKind(await transferKind((tx) => tx.moveCall({ target: "0x77::drain::all", arguments: [] })), pkg)
    assert.isFalse(otherCall.ok)
    if (!otherCall.ok) assert.match(otherCall.reason, /::drain::all is not a coin command/)
    const coin = (tx: Transaction) => tx.object(tx.objectRef({ objectId: "0x99", version: "2", digest }))
    const sharedInput = await transferKind((tx) => {
      shared(tx, "0xc1", true)
      tx.transferObjects([tx.splitCoins(coin(tx), [40n])], PAY_TO)
    })
    assert.deepStrictEqual(checkPaymentKind(sharedInput, pkg), { ok: false, reason: "inputs: a plain transfer takes no shared object" })
  })

  it("refuses a sponsored payment that also takes the gas coin as an input", async () => {
    const kind = await transferKind((tx) => tx.transferObjects([tx.object(tx.objectRef({ objectId: "0xfeed", version: "3", digest }))], PAY_TO))
    const read = readPaymentTransaction(dataOf(kind, { owner: SPONSOR, coinId: "0xfeed" }), pkg)
    assert.deepStrictEqual(read, { ok: false, reason: "inputs: a gas coin is also an input of the payment" })
  })
})
