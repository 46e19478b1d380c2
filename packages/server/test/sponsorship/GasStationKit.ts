import { assert } from "@effect/vitest"
import { bcs } from "@mysten/sui/bcs"
import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { coinWithBalance, Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect, Layer } from "effect"
import { type GatewayClient, type withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig, type AppConfigShape } from "../../src/Config.ts"
import { CatalogRepo } from "../../src/catalog/CatalogRepo.ts"
import { RateLimits } from "../../src/limits/RateLimits.ts"
import { Sponsorship } from "../../src/sponsorship/Sponsorship.ts"
import { GatewayKeyRepo } from "../../src/storage/GatewayKeyRepo.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { postJson } from "../support/RawPost.ts"
import { amount, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { testConfig } from "../support/TestServer.ts"

/**
 * A test gateway (`gatewayFor`) and, beside it on the same store, chain and sponsor key, the `Sponsorship` a
 * paid-call settlement uses: the test co-signs through it (`cosignPayment`) as settlement will, the way a
 * second replica would.
 */
export const gasStationEnv = (overrides: Partial<AppConfigShape> = {}) => {
  const config: AppConfigShape = { ...testConfig, ledgerCheckpointMs: 20, upstreamAllowHosts: [], ...overrides }
  const settlement = Sponsorship.layer.pipe(
    Layer.provide(Layer.mergeAll(GatewayKeyRepo.layer, RateLimits.layer, CatalogRepo.layer)),
    Layer.provide(AppConfig.layer(config))
  )
  return settlement.pipe(Layer.provideMerge(gatewayFor([], overrides)))
}

/** A fresh agent that owns no SUI at all, with a finalized SUI grant from `owner` (who pays its own gas). */
export const granteeWithoutSui = (client: GatewayClient, owner: Signer, asOwner: ReturnType<typeof withOwner>, key: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const agentKey = new Ed25519Keypair()
    const created = yield* client.delegatedSigners.create({
      headers: { "idempotency-key": key },
      payload: {
        agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
        assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(10_000n), maxPerPaymentAtomic: amount(100n) }]
      }
    }).pipe(asOwner)
    const grant = created.grants[0]
    if (grant === undefined) return yield* Effect.die(new Error("no grant was prepared"))
    const digest = yield* ledger.execute(grant.txKindBytes, owner)
    yield* ledger.checkpoint
    yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
    const manifest = yield* client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
    const first = manifest.grants[0]
    if (first === undefined) return yield* Effect.die(new Error("no grant in the manifest"))
    return {
      agentKey,
      agent: SuiAddress.make(normalizeSuiAddress(agentKey.toSuiAddress())),
      grant: { objectId: first.grantObjectId, initialSharedVersion: BigInt(first.grantInitialSharedVersion) },
      pool: { objectId: first.pool, initialSharedVersion: BigInt(first.poolInitialSharedVersion) }
    }
  })

export { payKind } from "../support/PayByHand.ts"

/** A kind (base64) composed by hand from `sender`'s point of view, resolved against the chain as a wallet does. */
export const kindOf = (sender: string, compose: (tx: Transaction) => void) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const tx = new Transaction()
    tx.setSender(sender)
    compose(tx)
    return toBase64(yield* Effect.promise(() => tx.build({ client: ledger.client, onlyTransactionKind: true })))
  })

/** The TransactionKind of a plain transfer, shape (b): what an `exact` client builds with `coinWithBalance`, never touching gas. */
export const transferKind = (payer: string, payTo: string, atomic: bigint) =>
  kindOf(payer, (tx) => {
    tx.transferObjects([coinWithBalance({ balance: atomic, useGasCoin: false })], payTo)
  })

/** `POST /v1/gas-station` as any HTTP client sends it; status, headers and JSON body. */
export const askStation = (baseUrl: string, transactionKind: string, sender: string) =>
  postJson(`${baseUrl}/v1/gas-station`, { transactionKind, sender })

/** The parts of returned transaction bytes a test checks. */
export const readBuilt = (transaction: string) => {
  const data = bcs.TransactionData.parse(fromBase64(transaction)).V1
  return {
    sender: normalizeSuiAddress(data.sender),
    gasOwner: normalizeSuiAddress(data.gasData.owner ?? ""),
    gasPayment: data.gasData.payment ?? [],
    price: BigInt(data.gasData.price ?? 0),
    budget: BigInt(data.gasData.budget ?? 0),
    expiration: data.expiration,
    kind: toBase64(bcs.TransactionKind.serialize(data.kind).toBytes())
  }
}

/**
 * Settles gas-station bytes as the paid-call path does: the payer's signature, the sponsor's co-signature
 * (`cosignPayment`), execution, then `settledPayment` with the effects' gas. The execution's effects.
 */
export const settle = (payer: Signer, transaction: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const sponsorship = yield* Sponsorship
    const bytes = fromBase64(transaction)
    const { signature } = yield* Effect.promise(() => payer.signTransaction(bytes))
    const cosigned = yield* sponsorship.cosignPayment(payer.toSuiAddress(), bytes)
    const result = yield* Effect.promise(() =>
      ledger.client.core.executeTransaction({ transaction: bytes, signatures: [signature, cosigned], include: { effects: true } })
    )
    const executed = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
    assert.isTrue(executed.status.success, JSON.stringify(executed.status))
    const gasUsed = executed.effects.gasUsed
    yield* sponsorship.settledPayment(bytes, {
      computationCost: BigInt(gasUsed.computationCost),
      storageCost: BigInt(gasUsed.storageCost),
      storageRebate: BigInt(gasUsed.storageRebate)
    })
    yield* ledger.checkpoint
    return executed
  })
