import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiJsonRpcClient } from "@mysten/sui/jsonRpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { assert, describe, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { eventType, SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import { verifyGrantCreated } from "@gateway/domain/verify/GrantCreatedVerifier"
import { Chain } from "../src/Chain.ts"
import { JsonRpcFront } from "../src/local/JsonRpcFront.ts"
import { LedgerJournal } from "../src/local/LedgerJournal.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"
import * as SuiChain from "../src/sui/SuiChain.ts"

const PACKAGE = `0x${"f00d".padEnd(64, "0")}`

class Origin extends Context.Service<Origin, string>()("@gateway/chain/test/Origin") {}

/** The front on a real Node HTTP server at 127.0.0.1 on a free port, over a fresh LocalLedger with manual checkpoints. */
const Served = Layer.effect(Origin, HttpServer.HttpServer.useSync((server) => HttpServer.formatAddress(server.address))).pipe(
  Layer.provideMerge(HttpRouter.serve(JsonRpcFront)),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 })),
  Layer.provideMerge(Chain.layerLocal),
  Layer.provideMerge(LocalLedger.layer({ packageId: PACKAGE, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
  Layer.provide(LedgerJournal.layerMemory)
)

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A raw JSON-RPC call, for the answers a typed client hides. */
const post = (url: string, body: unknown) =>
  promise(() => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json()))

describe("LocalLedger's Sui JSON-RPC front, driven by @mysten/sui's own SuiJsonRpcClient", () => {
  layer(Served, { excludeTestServices: true })((it) => {
    it.effect("funds at the faucet, completes kinds with gas by dry run, executes, fetches, and SuiChain verifies over HTTP", () =>
      Effect.gen(function*() {
        const origin = yield* Origin
        const ledger = yield* LocalLedger
        const chain = yield* Chain
        const client = new SuiJsonRpcClient({ url: `${origin}/sui`, network: "localnet" })
        const owner = new Ed25519Keypair()
        const sender = owner.toSuiAddress()

        const faucet = yield* promise(() => requestSuiFromFaucetV2({ host: origin, recipient: sender }))
        assert.strictEqual(faucet.status, "Success")
        assert.strictEqual(faucet.coins_sent?.[0]?.amount, 10_000_000_000)
        assert.strictEqual((yield* promise(() => client.getBalance({ owner: sender }))).totalBalance, "10000000000")

        // The kind carries no gas: the client prices it, sizes the budget by dry run and picks the coin itself.
        const execute = (txKindBytes: string) => {
          const transaction = Transaction.fromKind(fromBase64(txKindBytes))
          transaction.setSender(sender)
          return promise(() => client.signAndExecuteTransaction({ transaction, signer: owner, options: { showEffects: true, showEvents: true } }))
        }

        const funded = yield* execute((yield* chain.buildFundPool({ sender, coinType: SUI_COIN_TYPE, amount: 5000n })).txKindBytes)
        assert.strictEqual(funded.effects?.status.status, "success")
        assert.isTrue(funded.events?.some((e) => e.type === eventType(PACKAGE, "PoolCreated")))
        yield* ledger.checkpoint

        const pool = yield* chain.findPool(sender, SUI_COIN_TYPE)
        if (Option.isNone(pool)) return assert.fail("no pool after a checkpoint")
        const delegate = new Ed25519Keypair().toSuiAddress()
        const expected = { packageId: PACKAGE, owner: sender, delegate, poolId: pool.value.poolId, coinType: SUI_COIN_TYPE, sessionCap: 900n, maxPerPayment: 90n, expiryMs: 0n, policyIds: [4n, 2n] }
        const kind = yield* chain.buildCreateGrant({ sender, pool: pool.value, delegate, sessionCap: 900n, maxPerPayment: 90n, expiryMs: 0n, policyIds: [4n, 2n] })
        const created = yield* execute(kind.txKindBytes)
        assert.strictEqual(created.effects?.status.status, "success")
        assert.strictEqual(created.checkpoint, undefined, "not final before a checkpoint")
        // The effects name the grant it created and the gas coin it mutated, at the transaction's version.
        const grantId = created.events?.find((e) => e.type === eventType(PACKAGE, "GrantCreated"))?.parsedJson
        assert.deepStrictEqual(created.effects?.created?.map((o) => [o.reference.objectId, o.owner]), [
          [typeof grantId === "object" && grantId !== null && "grant_id" in grantId ? grantId.grant_id : "", { Shared: { initial_shared_version: Number(created.effects?.gasObject.reference.version) } }]
        ])
        assert.deepStrictEqual(created.effects?.mutated?.map((o) => o.reference), [created.effects?.gasObject.reference])
        yield* ledger.checkpoint

        const fetched = yield* promise(() =>
          client.getTransactionBlock({ digest: created.digest, options: { showEvents: true, showInput: true, showEffects: true } })
        )
        assert.strictEqual(fetched.effects?.status.status, "success")
        assert.strictEqual(fetched.transaction?.data.sender, sender)
        assert.strictEqual(fetched.checkpoint, (yield* ledger.latestCheckpoint).toString())
        const grantCreated = fetched.events?.find((e) => e.type === eventType(PACKAGE, "GrantCreated"))
        if (grantCreated === undefined) return assert.fail("no GrantCreated event")
        assert.strictEqual(grantCreated.bcsEncoding, "base64")
        assert.strictEqual(grantCreated.transactionModule, "spend_account")
        // waitForTransaction returns at once for a known digest.
        assert.strictEqual((yield* promise(() => client.waitForTransaction({ digest: created.digest, timeout: 2000 }))).digest, created.digest)

        // An unknown digest is refused with the error the client recognises, not an answer it would poll on.
        const unknown = yield* Effect.flip(Effect.tryPromise(() => client.getTransactionBlock({ digest: "11111111111111111111111111111111" })))
        assert.include(String(unknown.cause), "Could not find the referenced transaction [TransactionDigest(11111111111111111111111111111111)].")
        const notFound = yield* Effect.flip(Effect.tryPromise(() => client.core.getTransaction({ digest: "11111111111111111111111111111111" })))
        assert.include(String(notFound.cause), "not found")

        // The live adapter over the same URL.
        const sui = yield* Effect.provide(Chain.useSync((c) => c), SuiChain.layer({ url: `${origin}/sui`, network: "localnet", packageId: PACKAGE }))
        const found = yield* sui.findPool(sender, SUI_COIN_TYPE)
        assert.deepStrictEqual(found, pool)
        assert.deepStrictEqual(yield* sui.listPools(sender), [pool.value])
        const tx = yield* sui.getTransaction(created.digest)
        assert.strictEqual(tx.checkpoint, fetched.checkpoint ?? null)
        const facts = yield* verifyGrantCreated(expected, tx)
        const call = tx.calls.find((c) => c.function === "create_policy_grant")
        assert.deepStrictEqual(call?.arguments.slice(1, 6), [delegate, "900", "90", "0", ["4", "2"]])
        assert.deepStrictEqual(yield* Effect.flip(sui.getTransaction("11111111111111111111111111111111")), yield* Effect.flip(chain.getTransaction("11111111111111111111111111111111")))

        // A kind SuiChain built, completed by the real client: revoke the grant just created.
        const revoked = yield* execute((yield* sui.buildRevoke({ sender, grantObjectId: facts.grantObjectId })).txKindBytes)
        assert.strictEqual(revoked.effects?.status.status, "success")
        assert.isTrue(revoked.events?.some((e) => e.type === eventType(PACKAGE, "GrantRevoked")))

        // A Move call naming its object by id only: the client resolves the function and the object through the front.
        const revokeById = () => {
          const byId = new Transaction()
          byId.setSender(sender)
          byId.moveCall({ target: target(PACKAGE, "revoke_grant"), arguments: [byId.object(facts.grantObjectId)] })
          return byId
        }
        // Sized by dry run, a second revoke is refused by the client itself: the dry run reports the abort.
        const refused = yield* Effect.flip(Effect.tryPromise(() => client.signAndExecuteTransaction({ transaction: revokeById(), signer: owner })))
        assert.include(String(refused.cause), "EAlreadyRevoked")
        // With its budget set there is no dry run, and it aborts on chain.
        const budgeted = revokeById()
        budgeted.setGasBudget(10_000_000n)
        const again = yield* promise(() => client.signAndExecuteTransaction({ transaction: budgeted, signer: owner, options: { showEffects: true } }))
        assert.strictEqual(again.effects?.status.status, "failure", "a second revoke aborts on chain")
        assert.deepStrictEqual(again.effects?.created, [])
        assert.deepStrictEqual(again.effects?.mutated?.map((o) => o.reference.objectId), [again.effects?.gasObject.reference.objectId], "a failure mutates only gas")
        const input = yield* promise(() => client.getTransactionBlock({ digest: again.digest, options: { showInput: true } }))
        assert.include(JSON.stringify(input.transaction?.data.transaction), `"objectType":"sharedObject"`)

        // A caller's wrong id is NOT_FOUND through either adapter, not an outage.
        const missing = `0x${"ab".repeat(32)}`
        assert.strictEqual((yield* Effect.flip(sui.sharedVersion(missing)))._tag, "NOT_FOUND")
        assert.strictEqual((yield* Effect.flip(chain.sharedVersion(missing)))._tag, "NOT_FOUND")
        assert.strictEqual((yield* Effect.flip(sui.buildRevoke({ sender, grantObjectId: missing })))._tag, "NOT_FOUND")
        assert.strictEqual((yield* Effect.flip(sui.buildPay({ sender, grantObjectId: pool.value.poolId, amount: 1n, recipient: sender, memo: new Uint8Array() })))._tag, "NOT_FOUND", "a pool is not a grant")
        assert.strictEqual((yield* Effect.flip(chain.buildPay({ sender, grantObjectId: pool.value.poolId, amount: 1n, recipient: sender, memo: new Uint8Array() })))._tag, "NOT_FOUND")
      }))

    it.effect("dry-runs a transaction on the current state, reporting its real status, gas and events, and commits nothing", () =>
      Effect.gen(function*() {
        const origin = yield* Origin
        const ledger = yield* LocalLedger
        const chain = yield* Chain
        const client = new SuiJsonRpcClient({ url: `${origin}/sui`, network: "localnet" })
        const owner = new Ed25519Keypair()
        const sender = owner.toSuiAddress()
        yield* promise(() => requestSuiFromFaucetV2({ host: origin, recipient: sender }))
        const funding = Transaction.fromKind(fromBase64((yield* chain.buildFundPool({ sender, coinType: SUI_COIN_TYPE, amount: 500n })).txKindBytes))
        funding.setSender(sender)
        yield* promise(() => client.signAndExecuteTransaction({ transaction: funding, signer: owner }))
        yield* ledger.checkpoint
        const found = yield* chain.findPool(sender, SUI_COIN_TYPE)
        if (Option.isNone(found)) return assert.fail("no pool")
        const poolId = found.value.poolId

        /** Bytes with their budget set, so building them needs no dry run of the client's own; `unpaid` leaves the payment empty. */
        const bytesOf = (compose: (tx: Transaction) => void, unpaid = false) => {
          const tx = new Transaction()
          tx.setSender(sender)
          tx.setGasBudget(10_000_000n)
          if (unpaid) tx.setGasPayment([])
          compose(tx)
          return promise(() => tx.build({ client }))
        }
        const withdrawAll = (tx: Transaction) => {
          tx.moveCall({ target: target(PACKAGE, "withdraw"), typeArguments: [SUI_COIN_TYPE], arguments: [tx.object(poolId), tx.pure.u64(1_000_000n)] })
        }
        const deposit40 = (tx: Transaction) => {
          const [coin] = tx.splitCoins(tx.gas, [40n])
          if (coin === undefined) throw new Error("splitCoins returned nothing")
          tx.moveCall({ target: target(PACKAGE, "deposit"), typeArguments: [SUI_COIN_TYPE], arguments: [tx.object(poolId), coin] })
        }
        const state = Effect.gen(function*() {
          const coins = yield* promise(() => client.getCoins({ owner: sender }))
          const pool = yield* promise(() => client.getObject({ id: poolId, options: { showContent: true } }))
          return { coins: coins.data, pool: pool.data, checkpoint: yield* ledger.latestCheckpoint }
        })
        const before = yield* state

        // More than the pool holds: the dry run reports the abort and the gas, and changes nothing.
        const withdrawing = yield* bytesOf(withdrawAll)
        const failed = yield* promise(() => client.dryRunTransactionBlock({ transactionBlock: withdrawing }))
        assert.deepStrictEqual(failed.effects.status, { status: "failure", error: "MoveAbort(spend_account::withdraw, 8) EInsufficientBalance" })
        assert.strictEqual(failed.effects.gasUsed.computationCost, "1000000")
        assert.deepStrictEqual(failed.events, [])
        assert.deepStrictEqual(yield* state, before, "a dry run commits nothing")
        assert.isTrue(Option.isNone(yield* ledger.getRaw(failed.effects.transactionDigest)), "and records no digest")

        // A deposit that would succeed: its event and the pool it would mutate, still nothing committed.
        const depositing = yield* bytesOf(deposit40)
        const ok = yield* promise(() => client.dryRunTransactionBlock({ transactionBlock: depositing }))
        assert.strictEqual(ok.effects.status.status, "success")
        assert.deepStrictEqual(ok.events.map((e) => [e.type, e.parsedJson]), [[eventType(PACKAGE, "Deposited"), { pool_id: poolId, amount: "40" }]])
        assert.isTrue(ok.effects.mutated?.some((o) => o.reference.objectId === poolId), "the pool would be mutated")
        assert.deepStrictEqual(yield* state, before)

        // With no gas payment, as the client sizes a budget, a mock coin pays for the run.
        const unpaid = yield* bytesOf(deposit40, true)
        const mocked = yield* promise(() => client.dryRunTransactionBlock({ transactionBlock: unpaid }))
        assert.strictEqual(mocked.effects.status.status, "success")
        assert.strictEqual(mocked.effects.gasObject.reference.objectId, `0x${"f".repeat(64)}`)
        assert.deepStrictEqual(yield* state, before)

        // The dry-run bytes still execute, since nothing they name moved.
        const { signature } = yield* promise(() => owner.signTransaction(depositing))
        const executed = yield* promise(() => client.executeTransactionBlock({ transactionBlock: depositing, signature, options: { showEffects: true } }))
        assert.deepStrictEqual(executed.effects?.mutated, ok.effects.mutated)
      }))

    it.effect("shows the Clock at the ledger's time", () =>
      Effect.gen(function*() {
        const origin = yield* Origin
        const client = new SuiJsonRpcClient({ url: `${origin}/sui`, network: "localnet" })
        const from = Date.now()
        const clock = yield* promise(() => client.getObject({ id: "0x6", options: { showContent: true } }))
        const to = Date.now()
        const content = clock.data?.content
        const fields = content?.dataType === "moveObject" ? content.fields : null
        const timestamp = fields !== null && typeof fields === "object" && "timestamp_ms" in fields ? Number(fields.timestamp_ms) : -1
        assert.isTrue(timestamp >= from && timestamp <= to, `timestamp_ms ${timestamp} within [${from}, ${to}]`)
      }))

    it.effect("answers JSON-RPC errors with Sui's codes, and batches", () =>
      Effect.gen(function*() {
        const origin = yield* Origin
        const ledger = yield* LocalLedger
        const url = `${origin}/sui`
        assert.deepStrictEqual(yield* post(url, { jsonrpc: "2.0", id: 1, method: "sui_nothing", params: [] }), {
          jsonrpc: "2.0",
          id: 1,
          error: { code: -32601, message: "Method not found: sui_nothing is not served by the local ledger" }
        })
        const invalid: unknown = yield* post(url, { jsonrpc: "2.0", id: 2, method: "suix_getBalance", params: [7] })
        assert.deepInclude(invalid, { id: 2 })
        assert.include(JSON.stringify(invalid), "-32602")
        const missing: unknown = yield* post(url, { jsonrpc: "2.0", id: 3, method: "sui_getObject", params: [`0x${"ab".repeat(32)}`, { showOwner: true }] })
        assert.deepStrictEqual(missing, { jsonrpc: "2.0", id: 3, result: { error: { code: "notExists", object_id: `0x${"ab".repeat(32)}` } } })

        // Signed by the wrong key: the ledger refuses before executing, as -32002.
        const owner = new Ed25519Keypair()
        yield* promise(() => requestSuiFromFaucetV2({ host: origin, recipient: owner.toSuiAddress() }))
        const client = new SuiJsonRpcClient({ url, network: "localnet" })
        const transaction = Transaction.fromKind(fromBase64((yield* (yield* Chain).buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1n })).txKindBytes))
        transaction.setSender(owner.toSuiAddress())
        const bytes = yield* promise(() => transaction.build({ client }))
        const { signature } = yield* promise(() => new Ed25519Keypair().signTransaction(bytes))
        const rejected = yield* Effect.flip(Effect.tryPromise(() => client.executeTransactionBlock({ transactionBlock: bytes, signature })))
        assert.include(String(rejected.cause), "no valid signature")

        const batch: unknown = yield* post(url, [
          { jsonrpc: "2.0", id: "a", method: "suix_getReferenceGasPrice", params: [] },
          { jsonrpc: "2.0", id: "b", method: "sui_getChainIdentifier", params: [] }
        ])
        assert.deepStrictEqual(batch, [
          { jsonrpc: "2.0", id: "a", result: "1000" },
          { jsonrpc: "2.0", id: "b", result: (yield* promise(() => client.getChainIdentifier())) }
        ])

        yield* ledger.setFaults({ unavailable: true })
        const down: unknown = yield* post(url, { jsonrpc: "2.0", id: 4, method: "sui_getLatestCheckpointSequenceNumber", params: [] })
        yield* ledger.setFaults({ unavailable: false })
        assert.include(JSON.stringify(down), "-32000")
        const sui = yield* Effect.provide(Chain.useSync((c) => c), SuiChain.layer({ url: "http://127.0.0.1:9/sui", network: "localnet", packageId: PACKAGE }))
        assert.strictEqual((yield* Effect.flip(sui.health))._tag, "UNAVAILABLE")
      }))
  })
})
