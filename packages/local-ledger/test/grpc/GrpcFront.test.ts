import { bcs } from "@mysten/sui/bcs"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { RpcError } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Events, poolIdOf, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { LocalLedger } from "../../src/LocalLedger.ts"
import { clientFor, GrpcServerLayer, Origin, PKG } from "./GrpcServer.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const registry = { objectId: PKG.registryId, initialSharedVersion: 1n }

layer(GrpcServerLayer)("LocalLedger's gRPC-web front, driven by a plain SuiGrpcClient", (it) => {
  it.effect("funds by faucet, signs and executes a kind with gas chosen by SimulateTransaction, and reads it back as a node answers", () =>
    Effect.gen(function*() {
      const origin = yield* Origin
      const ledger = yield* LocalLedger
      const client = clientFor(origin)
      const owner = Ed25519Keypair.generate()
      const address = owner.toSuiAddress()

      const funded = yield* promise(() => requestSuiFromFaucetV2({ host: origin, recipient: address }))
      assert.strictEqual(funded.status, "Success")
      const { balance } = yield* promise(() => client.core.getBalance({ owner: address }))
      assert.strictEqual(balance.balance, "10000000000")

      const kind = yield* promise(() => Kinds.fundPool(PKG, { sender: address, coinType: SUI_COIN_TYPE, amount: 1_000n, pool: undefined, registry, coins: [] }))
      const tx = Transaction.fromKind(kind.txKindBytes)
      const executed = yield* promise(() => client.core.signAndExecuteTransaction({ transaction: tx, signer: owner, include: { effects: true } }))
      assert.strictEqual(executed.$kind, "Transaction", JSON.stringify(executed.FailedTransaction?.status))
      const digest = executed.Transaction?.digest ?? ""
      yield* ledger.checkpoint

      yield* promise(() => client.core.waitForTransaction({ digest }))
      const got = yield* promise(() =>
        client.core.getTransaction({ digest, include: { effects: true, events: true, balanceChanges: true, objectTypes: true, transaction: true, bcs: true } })
      )
      const read = got.Transaction
      if (read === undefined) return assert.fail("the transaction failed")
      assert.strictEqual(read.checkpoint, "1")
      assert.strictEqual(read.transaction?.sender, address)
      assert.isAbove(read.transaction?.gasData.payment?.length ?? 0, 0, "gas was selected by the node")
      const effectsBcs = read.effects?.bcs
      if (effectsBcs === undefined || effectsBcs === null) return assert.fail("no effects bcs")
      const effects = bcs.TransactionEffects.parse(effectsBcs)
      assert.strictEqual(effects.V2?.transactionDigest, digest)

      const poolId = poolIdOf(PKG, address, SUI_COIN_TYPE)
      const [event] = read.events ?? []
      if (event === undefined) return assert.fail("no event")
      assert.strictEqual(Events.PoolCreated.parse(event.bcs).pool_id, poolId)
      assert.deepStrictEqual(read.balanceChanges?.map((c) => c.address), [address])
      assert.isTrue(Object.values(read.objectTypes ?? {}).some((type) => type.includes("::spend_account::Pool<")))

      const { object: pool } = yield* promise(() => client.core.getObject({ objectId: poolId, include: { content: true } }))
      const poolChange = effects.V2?.changedObjects.find(([id]) => id === poolId)
      assert.strictEqual(poolChange?.[1].outputState.ObjectWrite?.[0], pool.digest, "effects and getObject agree on the pool's digest")
      assert.strictEqual(pool.version, effects.V2?.lamportVersion)
      const content = pool.content
      if (content === undefined) return assert.fail("no pool contents")
      const parsed = Structs.Pool.parse(content)
      assert.strictEqual(parsed.owner, address)
      assert.strictEqual(parsed.balance.value, "1000")
    }))

  it.effect("describes spend_account::pay, pages coins to the end, honours read masks and answers UNIMPLEMENTED", () =>
    Effect.gen(function*() {
      const origin = yield* Origin
      const ledger = yield* LocalLedger
      const client = clientFor(origin)
      const pay = yield* promise(() => client.core.getMoveFunction({ packageId: PKG.publishedAt, moduleName: "spend_account", name: "pay" }))
      assert.strictEqual(pay.function.name, "pay")
      assert.strictEqual(pay.function.parameters.length, 8)
      // The Registry (read for the package version), then the grant and the pool, both written.
      assert.deepStrictEqual(pay.function.parameters.slice(0, 3).map((p) => p.reference), ["immutable", "mutable", "mutable"])

      const owner = Ed25519Keypair.generate().toSuiAddress()
      for (let i = 0; i < 5; i++) yield* ledger.mint(owner, SUI_COIN_TYPE, BigInt(i + 1))
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: Awaited<ReturnType<typeof client.core.listCoins>> = yield* promise(() => client.core.listCoins({ owner, limit: 2, cursor }))
        seen.push(...page.objects.map((o) => o.objectId))
        cursor = page.hasNextPage ? page.cursor : null
      } while (cursor !== null)
      assert.strictEqual(new Set(seen).size, 5)

      const [coin = ""] = seen
      const masked = yield* promise(() => client.ledgerService.getObject({ objectId: coin, readMask: { paths: ["object_id", "version"] } }).response)
      assert.isDefined(masked.object?.version)
      assert.isUndefined(masked.object?.digest)
      assert.isUndefined(masked.object?.bcs)

      const failure = yield* Effect.flip(Effect.tryPromise({ try: () => client.nameService.lookupName({ name: "a.sui" }).response, catch: (error) => error }))
      if (!(failure instanceof RpcError)) return assert.fail(`not an RpcError: ${String(failure)}`)
      assert.strictEqual(failure.code, "UNIMPLEMENTED")
    }))

  it.effect("streams checkpoints to a subscriber", () =>
    Effect.gen(function*() {
      const origin = yield* Origin
      const ledger = yield* LocalLedger
      const client = clientFor(origin)
      const owner = Ed25519Keypair.generate()
      yield* promise(() => requestSuiFromFaucetV2({ host: origin, recipient: owner.toSuiAddress() }))
      const stop = new AbortController()
      const call = client.subscriptionService.subscribeCheckpoints({ readMask: { paths: ["sequence_number", "digest"] } }, { abort: stop.signal })
      const first = call.responses[Symbol.asyncIterator]().next()
      const kind = yield* promise(() => Kinds.fundPool(PKG, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 5n, pool: undefined, registry, coins: [] }))
      yield* promise(() => client.core.signAndExecuteTransaction({ transaction: Transaction.fromKind(kind.txKindBytes), signer: owner }))
      const made = yield* ledger.checkpoint
      const { value } = yield* promise(() => first)
      stop.abort()
      assert.strictEqual(value?.checkpoint?.sequenceNumber, made)
      assert.isDefined(value?.checkpoint?.digest)
    }))
})

