import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { eventType, Events, Functions, MODULE, normalizeCoinType, PACKAGE_VERSION, poolIdOf, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { createRequest, SUI } from "../support/Scenario.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const DEPOSIT = 5_000n

/** Ten SUI, what the faucet sends per request. */
const FAUCET_MIST = 10_000_000_000n

describe("a plain SuiGrpcClient against a running gateway", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("faucet, balance, a prepared kind signed and executed with gas from a dry run, and the reads a wallet makes", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* LocalLedger
        const pkg = ledger.config.pkg
        const api = yield* makeApiClient(baseUrl)
        const sui = new SuiGrpcClient({ network: "localnet", baseUrl: `${baseUrl}/sui` })
        const owner = new Ed25519Keypair()
        const address = owner.toSuiAddress()

        const faucet = yield* Effect.promise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: address }))
        assert.strictEqual(faucet.status, "Success")
        const funded = yield* Effect.promise(() => sui.core.getBalance({ owner: address }))
        assert.strictEqual(BigInt(funded.balance.balance), FAUCET_MIST)
        assert.strictEqual(normalizeCoinType(funded.balance.coinType), normalizeCoinType(SUI_COIN_TYPE))

        // The spend account's kind as the API prepares it, completed by the SDK alone: no gas given, no budget.
        const asOwner = withOwner((yield* signIn(api, owner)).authorization)
        const prepared = yield* api.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make(DEPOSIT.toString()) } }).pipe(asOwner)
        const transaction = Transaction.fromKind(fromBase64(prepared.txKindBytes))
        transaction.setSender(address)
        const executed = yield* Effect.promise(() => sui.signAndExecuteTransaction({ transaction, signer: owner, include: { effects: true } }))
        if (executed.$kind !== "Transaction") return assert.fail(`the fund kind failed: ${executed.FailedTransaction.status.error?.message}`)
        const digest = executed.Transaction.digest
        assert.isTrue(executed.Transaction.effects.status.success)

        yield* Effect.promise(() => sui.core.waitForTransaction({ digest }))
        yield* ledger.checkpoint
        const fetched = yield* Effect.promise(() =>
          sui.core.getTransaction({ digest, include: { effects: true, events: true, balanceChanges: true, transaction: true } })
        )
        const tx = fetched.Transaction
        if (tx === undefined) return assert.fail("the fund transaction reads as failed")
        assert.isNotNull(tx.checkpoint)
        assert.strictEqual(tx.effects.transactionDigest, digest)

        // The gas the SDK resolved: the faucet's coin pays, at the reference price, within a budget the dry run set.
        const gas = tx.transaction.gasData
        const [coin] = (yield* Effect.promise(() => sui.core.listCoins({ owner: address }))).objects
        assert.deepStrictEqual(gas.payment?.map((p) => normalizeSuiAddress(p.objectId)), [normalizeSuiAddress(coin?.objectId ?? "")])
        const { referenceGasPrice } = yield* Effect.promise(() => sui.core.getReferenceGasPrice())
        assert.strictEqual(String(gas.price), String(referenceGasPrice))
        const used = tx.effects.gasUsed
        const charged = BigInt(used.computationCost) + BigInt(used.storageCost) - BigInt(used.storageRebate)
        assert.isTrue(charged > 0n && charged <= BigInt(gas.budget ?? 0), `charged ${charged} within the budget ${gas.budget}`)

        // Events under the package's original id; balance changes say where the SUI went.
        const poolId = normalizeSuiAddress(poolIdOf(pkg, address, SUI))
        const created = tx.events.find((e) => e.eventType === eventType(pkg.originalId, "PoolCreated"))
        if (created === undefined) return assert.fail("no PoolCreated")
        const event = Events.PoolCreated.parse(created.bcs)
        assert.deepStrictEqual([normalizeSuiAddress(event.pool_id), normalizeSuiAddress(event.owner)], [poolId, normalizeSuiAddress(address)])
        assert.strictEqual(created.sender, normalizeSuiAddress(address))
        const spent = tx.balanceChanges.find((c) => normalizeSuiAddress(c.address) === normalizeSuiAddress(address))
        assert.strictEqual(BigInt(spent?.amount ?? 0), -(DEPOSIT + charged))
        const after = yield* Effect.promise(() => sui.core.getBalance({ owner: address }))
        assert.strictEqual(BigInt(after.balance.balance), FAUCET_MIST - DEPOSIT - charged)

        // A grant, executed through the SDK the same way and finalized by the gateway.
        const delegate = new Ed25519Keypair().toSuiAddress()
        const signer = yield* api.delegatedSigners.create(createRequest(delegate, "grpc-client", 1000n, 100n)).pipe(asOwner)
        const grant = signer.grants[0]
        if (grant === undefined) return assert.fail("no grant was prepared")
        const create = Transaction.fromKind(fromBase64(grant.txKindBytes))
        create.setSender(address)
        const made = yield* Effect.promise(() => sui.signAndExecuteTransaction({ transaction: create, signer: owner }))
        const madeDigest = (made.Transaction ?? made.FailedTransaction).digest
        yield* Effect.promise(() => sui.core.waitForTransaction({ digest: madeDigest }))
        yield* ledger.checkpoint
        const final = yield* api.delegatedSigners.finalizeCreate({ params: { id: signer.delegatedSignerId, grantId: grant.grantId }, payload: { digest: madeDigest } })
          .pipe(asOwner)
        assert.strictEqual(final.status, "active")
        const grantObjectId = final.grantObjectId ?? ""

        // The objects as a full node serves them: types under the original id, contents in the module's layout.
        const { objects } = yield* Effect.promise(() => sui.core.getObjects({ objectIds: [poolId, grantObjectId], include: { content: true } }))
        const [poolObject, grantObject] = objects
        if (poolObject === undefined || poolObject instanceof Error || grantObject === undefined || grantObject instanceof Error) {
          return assert.fail("the pool and the grant are not both served")
        }
        assert.strictEqual(poolObject.type, `${pkg.originalId}::${MODULE}::Pool<${normalizeCoinType(SUI_COIN_TYPE)}>`)
        assert.strictEqual(poolObject.owner.$kind, "Shared")
        const pool = Structs.Pool.parse(poolObject.content)
        assert.deepStrictEqual(
          { owner: normalizeSuiAddress(pool.owner), balance: BigInt(pool.balance.value), version: BigInt(pool.version), nonces: BigInt(pool.nonces.size) },
          { owner: normalizeSuiAddress(address), balance: DEPOSIT, version: PACKAGE_VERSION, nonces: 1n }
        )
        assert.strictEqual(grantObject.type, `${pkg.originalId}::${MODULE}::Grant`)
        const onChain = Structs.Grant.parse(grantObject.content)
        assert.deepStrictEqual(
          {
            pool: normalizeSuiAddress(onChain.pool_id),
            delegate: normalizeSuiAddress(onChain.delegate),
            cap: BigInt(onChain.session_cap),
            perPayment: BigInt(onChain.max_per_payment),
            spent: BigInt(onChain.spent),
            version: BigInt(onChain.version)
          },
          { pool: poolId, delegate: normalizeSuiAddress(delegate), cap: 1000n, perPayment: 100n, spent: 0n, version: PACKAGE_VERSION }
        )

        // The agent's entry point as the package describes it: generic over the coin, the module's arguments and the TxContext.
        const { response } = yield* Effect.promise(() =>
          sui.movePackageService.getFunction({ packageId: pkg.publishedAt, moduleName: MODULE, name: "pay" })
        )
        assert.strictEqual(response.function?.name, "pay")
        assert.strictEqual(response.function?.typeParameters.length, Functions.pay.typeParameters)
        assert.strictEqual(response.function?.parameters.length, Functions.pay.parameters.length + 1)
      }))
  })
})
