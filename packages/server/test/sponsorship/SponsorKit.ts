import { assert } from "@effect/vitest"
import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { bcs } from "@mysten/sui/bcs"
import { Effect } from "effect"
import { type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import type { CoinType } from "@gateway/domain/CoinType"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { amount } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { defaults } from "../../src/Config.ts"
import { BaseUrl } from "../support/TestServer.ts"

export type AsOwner = ReturnType<typeof withOwner>

/** The owner's wallet signing sponsored bytes: the signature over exactly the bytes shown. */
export const signed = (signer: Signer, txBytes: string) => Effect.promise(() => signer.signTransaction(fromBase64(txBytes)))

/** An owner who holds `coinType` and not one MIST of SUI, signed in. */
export const ownerWithout = (client: GatewayClient, coinType: CoinType) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const owner = new Ed25519Keypair()
    yield* ledger.mint(owner.toSuiAddress(), coinType, 1_000_000n)
    const { authorization } = yield* signIn(client, owner)
    return { owner, asOwner: withOwner(authorization), authorization }
  })

/** Sponsors a prepared kind, signs it as the owner's wallet does and has the gateway execute it; final on chain. */
export const sponsoredRun = (client: GatewayClient, owner: Signer, asOwner: AsOwner, txKindBytes: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const { txBytes } = yield* client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner)
    const { signature } = yield* signed(owner, txBytes)
    const executed = yield* client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner)
    assert.strictEqual(executed.status, "success", executed.error ?? "")
    yield* ledger.checkpoint
    return executed.digest
  })

/** What an address holds in SUI, all coins together. */
export const suiOf = (address: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const { balance } = yield* Effect.promise(() => ledger.client.core.getBalance({ owner: address }))
    return BigInt(balance.balance)
  })

/** The address's SUI coins as a wallet lists them. */
export const coinsOf = (address: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    return (yield* Effect.promise(() => ledger.client.core.listCoins({ owner: address }))).objects
  })

/** A coin split off for the sponsor's pool (the default `SPONSOR_COIN_MIST`). */
const isPoolCoin = (c: { readonly balance: string }) => BigInt(c.balance) === BigInt(defaults.sponsorCoinMist)

/**
 * The sponsor's coins once its pool is split (`SPONSOR_POOL_COINS` less the few the faucet's own coins stand in
 * for), waiting for it for at most 10 s: the pool is filled in the background after start.
 */
export const poolFilled = (sponsor: string) =>
  Effect.gen(function*() {
    let coins = yield* coinsOf(sponsor)
    for (let i = 0; i < 100 && coins.filter(isPoolCoin).length < defaults.sponsorPoolCoins - 3; i++) {
      yield* Effect.sleep("100 millis")
      coins = yield* coinsOf(sponsor)
    }
    return { coins, poolCoins: coins.filter(isPoolCoin) }
  })

/** An owner with no SUI and a spend account in `coinType` funded through sponsorship. */
export const fundedWithoutSui = (coinType: CoinType) =>
  Effect.gen(function*() {
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* ownerWithout(client, coinType)
    const fund = yield* client.spendAccounts.prepare({ payload: { asset: coinType, depositAtomic: amount(500_000n) } }).pipe(asOwner)
    yield* sponsoredRun(client, owner, asOwner, fund.txKindBytes)
    const pool = (yield* client.spendAccounts.list().pipe(asOwner)).spendAccounts.find((a) => a.coinType === coinType)
    if (pool === undefined) return yield* Effect.die(new Error("no spend account after funding"))
    return { client, owner, asOwner, pool: pool.pool }
  })

/** A withdraw of `atomic` from `pool` to the sender, as a kind anyone can assemble offline. */
export const withdrawKind = (sender: string, pool: string, coinType: CoinType, atomic: bigint) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const ref = yield* ledger.sharedRef(pool)
    const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
    const tx = new Transaction()
    tx.setSender(sender)
    const [coin] = tx.moveCall({
      target: `${ledger.pkg.publishedAt}::spend_account::withdraw`,
      typeArguments: [coinType],
      arguments: [
        tx.sharedObjectRef({ objectId: registry.objectId, initialSharedVersion: registry.initialSharedVersion.toString(), mutable: false }),
        tx.sharedObjectRef({ objectId: ref.objectId, initialSharedVersion: ref.initialSharedVersion.toString(), mutable: true }),
        tx.pure.u64(atomic)
      ]
    })
    if (coin === undefined) throw new Error("withdraw returned nothing")
    tx.transferObjects([coin], sender)
    return toBase64(yield* Effect.promise(() => tx.build({ onlyTransactionKind: true })))
  })

/** A create-grant request for one scope of `coinType`, for the given agent. */
export const createRequestFor = (coinType: CoinType, agent: string, key: string) => ({
  headers: { "idempotency-key": key },
  payload: {
    agentAddress: SuiAddress.make(agent),
    assetScopes: [{ asset: coinType, totalBudgetAtomic: amount(1000n), maxPerPaymentAtomic: amount(100n) }]
  }
})

export interface GasChoice {
  readonly sponsor: string
  readonly payment: ReadonlyArray<{ readonly objectId: string; readonly version: string; readonly digest: string }>
  readonly price: bigint
  readonly budget: bigint
}

/** Transaction data the owner assembles around a kind, paid by the sponsor's coins as the owner chooses: what the gateway must not co-sign. */
export const assembled = (sender: string, txKindBytes: string, gas: GasChoice) =>
  Effect.promise(async () => {
    const tx = Transaction.fromKind(fromBase64(txKindBytes))
    tx.setSender(sender)
    tx.setGasOwner(gas.sponsor)
    tx.setGasPayment(gas.payment.map((c) => ({ objectId: c.objectId, version: c.version, digest: c.digest })))
    tx.setGasPrice(gas.price)
    tx.setGasBudget(gas.budget)
    return toBase64(await tx.build())
  })

/** The gas data of sponsored bytes. */
export const gasOf = (txBytes: string) => {
  const { gasData } = bcs.TransactionData.parse(fromBase64(txBytes)).V1
  return { payment: gasData.payment ?? [], price: BigInt(gasData.price ?? 0), budget: BigInt(gasData.budget ?? 0) }
}
