import type { Signer } from "@mysten/sui/cryptography"
import { coinWithBalance, Transaction } from "@mysten/sui/transactions"
import { normalizeStructTag } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { type JournalEntry, LedgerJournal } from "../src/LedgerJournal.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import { Client, fund, ledgerLayer, promise, seededEd25519, transactionOf } from "./LedgerHarness.ts"

const SUI = normalizeStructTag(SUI_COIN_TYPE)
const TEST_COIN = normalizeStructTag(`0x${"ab".padEnd(64, "0")}::test::USD`)

/** A journal two ledgers share, one after the other: the second replays what the first wrote. */
const sharedJournal = (entries: Array<JournalEntry> = []) =>
  Layer.succeed(LedgerJournal, LedgerJournal.of({ load: Effect.sync(() => [...entries]), append: (entry) => Effect.sync(() => void entries.push(entry)) }))

/** Signs and executes a transaction the SDK completes against the ledger (gas chosen by the node's simulation), then checkpoints. */
const run = (transaction: Transaction, signer: Signer) =>
  Effect.gen(function*() {
    const client = yield* Client
    transaction.setSenderIfNotSet(signer.toSuiAddress())
    const result = transactionOf(
      yield* promise(() => client.core.signAndExecuteTransaction({ transaction, signer, include: { effects: true, balanceChanges: true, transaction: true } }))
    )
    yield* (yield* LocalLedger).checkpoint
    return result
  })

/** What the call fails with, as text. */
const failureOf = <A>(call: () => Promise<A>) =>
  Effect.flip(Effect.tryPromise({ try: call, catch: (error) => error })).pipe(Effect.map((error) => (error instanceof Error ? error.message : String(error))))

/** `amount` of `coin` (a coin of `from`'s, or split from its gas) sent into `to`'s address balance with `0x2::coin::send_funds`. */
const sendFunds = (from: Signer, to: string, coinType: string, amount: bigint, coinId?: string) => {
  const tx = new Transaction()
  const [part] = tx.splitCoins(coinId === undefined ? tx.gas : tx.object(coinId), [amount])
  if (part === undefined) throw new Error("splitCoins returned nothing")
  tx.moveCall({ target: "0x2::coin::send_funds", typeArguments: [coinType], arguments: [part, tx.pure.address(to)] })
  return run(tx, from)
}

const balanceOf = (owner: string, coinType: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    return (yield* promise(() => client.core.getBalance({ owner, coinType }))).balance
  })

/**
 * A funder with gas and a second coin, and a holder whose SUI and test coin
 * sit only in its address balance (it owns no coin at all).
 */
const fixture = (seed: number) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const funder = seededEd25519(seed, 0)
    const holder = seededEd25519(seed, 1)
    yield* fund(funder)
    const minted = yield* ledger.mint(funder.toSuiAddress(), TEST_COIN, 10_000n)
    const sentSui = yield* sendFunds(funder, holder.toSuiAddress(), SUI, 1_000_000_000n)
    const sentTest = yield* sendFunds(funder, holder.toSuiAddress(), TEST_COIN, 1_000n, minted.id)
    return { funder, holder, sentSui, sentTest }
  })

describe("address balances on LocalLedger", () => {
  it.live("send_funds fills an address balance, which getBalance and listBalances report apart from coins", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { funder, holder, sentSui, sentTest } = yield* fixture(71)
      assert.isTrue(sentSui.status.success && sentTest.status.success, `${sentSui.status.error?.message} ${sentTest.status.error?.message}`)
      const holderAddress = holder.toSuiAddress()
      assert.deepInclude(sentTest.balanceChanges, { address: holderAddress, coinType: TEST_COIN, amount: "1000" })
      assert.deepInclude(sentTest.balanceChanges, { address: funder.toSuiAddress(), coinType: TEST_COIN, amount: "-1000" })
      const sui = yield* balanceOf(holderAddress, SUI)
      assert.deepStrictEqual([sui.addressBalance, sui.coinBalance, sui.balance], ["1000000000", "0", "1000000000"])
      const test = yield* balanceOf(holderAddress, TEST_COIN)
      assert.deepStrictEqual([test.addressBalance, test.coinBalance, test.balance], ["1000", "0", "1000"])
      // The funder keeps 9 000 of its test coin as a coin: coins and address balance stay apart.
      const funderTest = yield* balanceOf(funder.toSuiAddress(), TEST_COIN)
      assert.deepStrictEqual([funderTest.addressBalance, funderTest.coinBalance], ["0", "9000"])
      const listed = (yield* promise(() => client.core.listBalances({ owner: holderAddress }))).balances
      assert.deepStrictEqual(listed.map((b) => [b.coinType, b.addressBalance, b.coinBalance]).sort(), [[SUI, "1000000000", "0"], [TEST_COIN, "1000", "0"]].sort())
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("a coinWithBalance the SDK builds redeems from the address balance, and gas is paid from it with a ValidDuring window", () =>
    Effect.gen(function*() {
      const { funder, holder } = yield* fixture(72)
      const recipient = funder.toSuiAddress()
      const tx = new Transaction()
      tx.transferObjects([coinWithBalance({ type: TEST_COIN, balance: 300n })], recipient)
      const result = yield* run(tx, holder)
      assert.isTrue(result.status.success, result.status.error?.message)
      const data = result.transaction
      // The holder owns no coin: the SDK redeems a FundsWithdrawal with 0x2::coin::redeem_funds, and the node's
      // gas selection leaves the payment empty, so gas comes from the SUI address balance under a ValidDuring window.
      assert.isTrue(data.inputs.some((input) => "FundsWithdrawal" in input))
      assert.isTrue(data.commands.some((command) => "MoveCall" in command && command.MoveCall.module === "coin" && command.MoveCall.function === "redeem_funds"))
      assert.deepStrictEqual(data.gasData.payment, [])
      assert.isTrue(data.expiration !== null && data.expiration !== undefined && "ValidDuring" in data.expiration)
      const gas = result.effects.gasUsed
      const charged = BigInt(gas.computationCost) + BigInt(gas.storageCost) - BigInt(gas.storageRebate)
      assert.deepInclude(result.balanceChanges, { address: holder.toSuiAddress(), coinType: TEST_COIN, amount: "-300" })
      assert.deepInclude(result.balanceChanges, { address: holder.toSuiAddress(), coinType: SUI, amount: (-charged).toString() })
      assert.strictEqual((yield* balanceOf(holder.toSuiAddress(), TEST_COIN)).addressBalance, "700")
      assert.strictEqual((yield* balanceOf(holder.toSuiAddress(), SUI)).addressBalance, (1_000_000_000n - charged).toString())
      assert.strictEqual((yield* balanceOf(recipient, TEST_COIN)).coinBalance, "9300")
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("a withdrawal beyond the address balance is refused, as a node refuses it when signing", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { holder, funder } = yield* fixture(73)
      const { referenceGasPrice } = yield* promise(() => client.core.getReferenceGasPrice())
      const { objects } = yield* promise(() => client.core.listCoins({ owner: funder.toSuiAddress() }))
      // The funder's own address balance holds nothing: a fully built withdrawal of 1 is refused at execution.
      const tx = new Transaction()
      tx.setSender(funder.toSuiAddress())
      const coin = tx.moveCall({ target: "0x2::coin::redeem_funds", typeArguments: [TEST_COIN], arguments: [tx.withdrawal({ amount: 1n, type: TEST_COIN })] })
      tx.transferObjects([coin], funder.toSuiAddress())
      tx.setGasBudget(10_000_000n)
      tx.setGasPrice(BigInt(referenceGasPrice))
      tx.setGasPayment(objects.map((c) => ({ objectId: c.objectId, version: c.version, digest: c.digest })))
      const refused = yield* failureOf(() => client.core.signAndExecuteTransaction({ transaction: tx, signer: funder }))
      assert.match(refused, /Insufficient address balance of coin type .*test::USD.*requires 1 but only 0 is available/)
      // Holding 1 000, the holder cannot redeem 1 001 either; the node's simulation refuses the same way.
      const over = new Transaction()
      over.setSender(holder.toSuiAddress())
      const more = over.moveCall({ target: "0x2::coin::redeem_funds", typeArguments: [TEST_COIN], arguments: [over.withdrawal({ amount: 1_001n, type: TEST_COIN })] })
      over.transferObjects([more], holder.toSuiAddress())
      assert.match(yield* failureOf(() => over.build({ client })), /requires 1001 but only 1000 is available/)
      assert.strictEqual((yield* balanceOf(holder.toSuiAddress(), TEST_COIN)).addressBalance, "1000")
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("gas from the address balance needs a ValidDuring window on this chain, including the current epoch", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { holder } = yield* fixture(74)
      const { chainIdentifier } = yield* promise(() => client.core.getChainIdentifier())
      const signed = (expiration: { readonly minEpoch: number; readonly maxEpoch: number; readonly chain: string }) => {
        const tx = new Transaction()
        tx.setSender(holder.toSuiAddress())
        tx.moveCall({ target: "0x2::coin::send_funds", typeArguments: [TEST_COIN], arguments: [coinWithBalance({ type: TEST_COIN, balance: 1n }), tx.pure.address(holder.toSuiAddress())] })
        tx.setGasBudget(5_000_000n)
        tx.setGasPrice(1_000n)
        tx.setGasPayment([])
        tx.setExpiration({ ValidDuring: { minEpoch: String(expiration.minEpoch), maxEpoch: String(expiration.maxEpoch), minTimestamp: null, maxTimestamp: null, chain: expiration.chain, nonce: 7 } })
        return failureOf(() => client.core.signAndExecuteTransaction({ transaction: tx, signer: holder }))
      }
      assert.match(yield* signed({ minEpoch: 2, maxEpoch: 3, chain: chainIdentifier }), /valid from epoch 2/)
      assert.match(yield* signed({ minEpoch: 0, maxEpoch: 2, chain: chainIdentifier }), /max_epoch must be at most min_epoch \+ 1/)
      assert.match(yield* signed({ minEpoch: 0, maxEpoch: 1, chain: "11111111111111111111111111111111" }), /InvalidChainId/)
      const none = new Transaction()
      none.setSender(holder.toSuiAddress())
      none.transferObjects([coinWithBalance({ type: TEST_COIN, balance: 1n })], holder.toSuiAddress())
      none.setGasBudget(5_000_000n)
      none.setGasPrice(1_000n)
      none.setGasPayment([])
      none.setExpiration({ None: true })
      assert.match(yield* failureOf(() => client.core.signAndExecuteTransaction({ transaction: none, signer: holder })), /needs a ValidDuring expiration/)
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("a journal replays address balances to what they were", () =>
    Effect.gen(function*() {
      const entries: Array<JournalEntry> = []
      const seed = 75
      const before = yield* Effect.gen(function*() {
        const { holder } = yield* fixture(seed)
        const tx = new Transaction()
        tx.transferObjects([coinWithBalance({ type: TEST_COIN, balance: 250n })], holder.toSuiAddress())
        assert.isTrue((yield* run(tx, holder)).status.success)
        return [yield* balanceOf(holder.toSuiAddress(), SUI), yield* balanceOf(holder.toSuiAddress(), TEST_COIN)]
      }).pipe(Effect.provide(ledgerLayer(sharedJournal(entries))))
      const after = yield* Effect.gen(function*() {
        const holder = seededEd25519(seed, 1).toSuiAddress()
        return [yield* balanceOf(holder, SUI), yield* balanceOf(holder, TEST_COIN)]
      }).pipe(Effect.provide(ledgerLayer(sharedJournal(entries))))
      assert.deepStrictEqual(after, before)
      assert.strictEqual(after[1]?.addressBalance, "750")
      assert.strictEqual(after[1]?.coinBalance, "250")
    }))
})
