import type { Signer } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeStructTag } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { type SpendAccountPackage, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { UnsupportedAsset } from "@gateway/domain/Errors"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { localTransport } from "@gateway/local-ledger/LocalTransport"
import { Chain } from "../src/Chain.ts"
import * as SuiChain from "../src/sui/SuiChain.ts"

const address = (n: string) => `0x${n.padEnd(64, "0")}`
const PKG: SpendAccountPackage = { originalId: address("5e4d"), publishedAt: address("5e4e"), registryId: address("4e6") }
const SUI = normalizeStructTag(SUI_COIN_TYPE)
const TEST_COIN = normalizeStructTag(`${address("ab")}::test::USD`)

class Client extends Context.Service<Client, SuiGrpcClient>()("@gateway/chain/test/FundFromAddressBalance/Client") {}

/** LocalLedger in process, a `SuiGrpcClient` on its transport, and `SuiChain` over that client. */
const TestLayer = Layer.unwrap(Client.useSync((client) => SuiChain.layer({ client, network: "localnet", pkg: PKG, assets: [SUI_COIN_TYPE] }))).pipe(
  Layer.provideMerge(Layer.effect(Client, Effect.map(localTransport, (transport) => new SuiGrpcClient({ network: "localnet", transport })))),
  Layer.provideMerge(LocalLedger.layer({ pkg: PKG, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
  Layer.provide(LedgerJournal.layerMemory)
)

const keyOf = (n: number) => Ed25519Keypair.fromSecretKey(new Uint8Array(32).fill(n))

/** Signs and executes a transaction as a wallet does (the node completes its gas), then checkpoints. */
const run = (transaction: Transaction, signer: Signer) =>
  Effect.gen(function*() {
    const client = yield* Client
    transaction.setSenderIfNotSet(signer.toSuiAddress())
    const result = yield* Effect.promise(() => client.core.signAndExecuteTransaction({ transaction, signer, include: { effects: true } }))
    yield* (yield* LocalLedger).checkpoint
    const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
    assert.isTrue(tx.status.success, tx.status.error?.message)
    return tx
  })

/** An owner whose SUI and test coin sit only in its address balance: a funder sends them there with `0x2::coin::send_funds`. */
const ownerWithAddressBalanceOnly = (seed: number) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const funder = keyOf(seed)
    const owner = keyOf(seed + 1)
    yield* ledger.faucet(funder.toSuiAddress(), 10_000_000_000n)
    const minted = yield* ledger.mint(funder.toSuiAddress(), TEST_COIN, 5_000n)
    for (const [coinType, amount, from] of [[SUI, 2_000_000_000n, undefined], [TEST_COIN, 5_000n, minted.id]] as const) {
      const tx = new Transaction()
      const [part] = tx.splitCoins(from === undefined ? tx.gas : tx.object(from), [amount])
      if (part === undefined) return yield* Effect.die("splitCoins returned nothing")
      tx.moveCall({ target: "0x2::coin::send_funds", typeArguments: [coinType], arguments: [part, tx.pure.address(owner.toSuiAddress())] })
      yield* run(tx, funder)
    }
    return owner
  })

describe("fundPool from an address balance", () => {
  it.effect("an owner with funds only in its address balance funds a pool of SUI and of a second coin; the pool gets the amount", () =>
    Effect.gen(function*() {
      const chain = yield* Chain
      const client = yield* Client
      const owner = yield* ownerWithAddressBalanceOnly(81)
      const sender = owner.toSuiAddress()
      const { objects } = yield* Effect.promise(() => client.core.listCoins({ owner: sender, coinType: SUI }))
      assert.deepStrictEqual(objects, [], "the owner holds no coin")
      for (const [coinType, amount] of [[SUI, 700_000_000n], [TEST_COIN, 3_000n], [TEST_COIN, 500n]] as const) {
        const kind = yield* chain.buildFundPool({ sender, coinType, amount })
        const commands = Transaction.fromKind(fromBase64(kind.txKindBytes)).getData().commands
        assert.isTrue(commands.some((c) => c.MoveCall?.module === "coin" && c.MoveCall.function === "redeem_funds"), "the deposit is redeemed from the address balance")
        yield* run(Transaction.fromKind(fromBase64(kind.txKindBytes)), owner)
      }
      const suiPool = yield* chain.findPool(sender, SUI)
      const testPool = yield* chain.findPool(sender, TEST_COIN)
      assert.strictEqual(Option.map(suiPool, (p) => p.balance).pipe(Option.getOrUndefined), 700_000_000n)
      assert.strictEqual(Option.map(testPool, (p) => p.balance).pipe(Option.getOrUndefined), 3_500n)
      const left = (yield* Effect.promise(() => client.core.getBalance({ owner: sender, coinType: TEST_COIN }))).balance
      assert.deepStrictEqual([left.addressBalance, left.coinBalance], ["1500", "0"])
    }).pipe(Effect.provide(TestLayer)))

  it.effect("the refusal counts the address balance: all of it builds, one more is refused before anything is built", () =>
    Effect.gen(function*() {
      const chain = yield* Chain
      const owner = yield* ownerWithAddressBalanceOnly(91)
      const all = yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: TEST_COIN, amount: 5_000n })
      assert.strictEqual(all.moveTarget, `${PKG.publishedAt}::spend_account::create_pool`)
      const refused = yield* Effect.flip(chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: TEST_COIN, amount: 5_001n }))
      assert.isTrue(refused instanceof UnsupportedAsset && refused.reason === "insufficient_coins_to_fund_pool", String(refused))
    }).pipe(Effect.provide(TestLayer)))
})
