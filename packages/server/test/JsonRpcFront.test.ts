import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiJsonRpcClient } from "@mysten/sui/jsonRpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { jsonRpcLedgerAccess } from "@gateway/client/JsonRpcLedger"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { Chain } from "@gateway/chain/Chain"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import * as SuiChain from "@gateway/chain/sui/SuiChain"
import { verifyGrantCreated } from "@gateway/domain/verify/GrantCreatedVerifier"
import { failsWith } from "./Assertions.ts"
import { createRequest, SUI } from "./Scenario.ts"
import { BaseUrl, layerTestServer } from "./TestServer.ts"

describe("LocalLedger's Sui JSON-RPC front", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("a wallet funds itself at the faucet, executes kinds over JSON-RPC, and the gateway verifies them", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* LocalLedger
        const client = yield* makeApiClient(baseUrl)
        const owner = new Ed25519Keypair()
        const faucet = yield* Effect.promise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: owner.toSuiAddress() }))
        assert.strictEqual(faucet.status, "Success")

        const access = yield* jsonRpcLedgerAccess(`${baseUrl}/sui`)
        const asOwner = withOwner((yield* signIn(client, owner)).authorization)
        const fund = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("5000") } }).pipe(asOwner)
        const funded = yield* executeKind(fund.txKindBytes, owner, access)
        assert.strictEqual(funded.status, "success")
        yield* ledger.checkpoint

        const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "rpc")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const executed = yield* executeKind(grant.txKindBytes, owner, access)
        yield* ledger.checkpoint
        const final = yield* client.delegatedSigners.finalizeCreate({
          params: { id: created.delegatedSignerId, grantId: grant.grantId },
          payload: { digest: executed.digest }
        }).pipe(asOwner)
        assert.strictEqual(final.status, "active")

        const rpc = new SuiJsonRpcClient({ url: `${baseUrl}/sui`, network: "localnet" })
        const fetched = yield* Effect.promise(() => rpc.getTransactionBlock({ digest: executed.digest, options: { showEvents: true, showEffects: true } }))
        assert.strictEqual(fetched.effects?.status.status, "success")
        assert.isTrue(fetched.events?.some((e) => e.type.endsWith("::spend_account::GrantCreated")))
        assert.strictEqual(fetched.checkpoint, (yield* ledger.latestCheckpoint).toString())
        const unknown = yield* Effect.flip(Effect.tryPromise(() => rpc.getTransactionBlock({ digest: "11111111111111111111111111111111" })))
        assert.include(String(unknown.cause), "Could not find the referenced transaction")
      }))

    it.effect("SuiChain, the live adapter, finds pools, builds kinds and fetches transactions that verify, over HTTP", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* LocalLedger
        const sui = yield* Effect.provide(Chain.useSync((chain) => chain), SuiChain.layer({ url: `${baseUrl}/sui`, network: "localnet", packageId: ledger.config.packageId }))
        const owner = new Ed25519Keypair()
        yield* Effect.promise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: owner.toSuiAddress() }))
        const access = yield* jsonRpcLedgerAccess(`${baseUrl}/sui`)
        yield* executeKind((yield* sui.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI, amount: 7000n })).txKindBytes, owner, access)
        yield* ledger.checkpoint
        const pool = yield* sui.findPool(owner.toSuiAddress(), SUI)
        if (Option.isNone(pool)) return assert.fail("SuiChain did not find the pool")
        assert.strictEqual(pool.value.balance, 7000n)

        const delegate = new Ed25519Keypair().toSuiAddress()
        const kind = yield* sui.buildCreateGrant({ sender: owner.toSuiAddress(), pool: pool.value, delegate, sessionCap: 500n, maxPerPayment: 50n, expiryMs: 0n, policyIds: [3n] })
        const executed = yield* executeKind(kind.txKindBytes, owner, access)
        yield* failsWith(sui.getTransaction(executed.digest).pipe(Effect.flatMap((tx) =>
          verifyGrantCreated({ packageId: sui.packageId, owner: owner.toSuiAddress(), delegate, poolId: pool.value.poolId, coinType: SUI, sessionCap: 500n, maxPerPayment: 50n, expiryMs: 0n, policyIds: [3n] }, tx))), "NOT_FINAL")
        yield* ledger.checkpoint
        const tx = yield* sui.getTransaction(executed.digest)
        const facts = yield* verifyGrantCreated({ packageId: sui.packageId, owner: owner.toSuiAddress(), delegate, poolId: pool.value.poolId, coinType: SUI, sessionCap: 500n, maxPerPayment: 50n, expiryMs: 0n, policyIds: [3n] }, tx)
        assert.match(facts.grantObjectId, /^0x[0-9a-f]{64}$/)
        assert.isTrue(tx.calls.some((c) => c.function === "create_policy_grant"))
        yield* failsWith(sui.getTransaction("11111111111111111111111111111111"), "NOT_FINAL")
      }))
  })
})
