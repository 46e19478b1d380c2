import { ObjectError } from "@mysten/sui/client"
import { GrpcStatusCode, RpcError } from "@mysten/sui/grpc"
import { normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { assert, layer } from "@effect/vitest"
import { Clock, Effect, Option } from "effect"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { AbortCode, grantType, MODULE, PACKAGE_VERSION, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Chain } from "@gateway/chain/Chain"
import { LocalLedger } from "../../src/LocalLedger.ts"
import { Client, execute, fund, ledgerLayer, PKG, promise, seededEd25519 } from "../LedgerHarness.ts"

const TEST_COIN = `0x${"c1".padEnd(64, "0")}::test::EUR`
/** A coin type minted with metadata, as a published coin has. */
const PUBLISHED_COIN = `0x${"c2".padEnd(64, "0")}::usdc::USDC`
const MISSING = `0x${"dead".padEnd(64, "0")}`

/** A call expected to end with a gRPC status: its RpcError code. */
const statusOf = <A>(call: () => Promise<A>) =>
  Effect.flip(Effect.tryPromise({ try: call, catch: (error) => error })).pipe(
    Effect.map((error) => (error instanceof RpcError ? error.code : assert.fail(`not an RpcError: ${String(error)}`)))
  )

/** An owner with a pool and a policy grant to a funded delegate, all final. */
const grantFixture = (seed: number) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const owner = seededEd25519(seed, 0)
    const delegate = seededEd25519(seed, 1)
    for (const key of [owner, delegate]) yield* fund(key)
    yield* execute((yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n })).txKindBytes, owner)
    const pool = yield* chain.findPool(owner.toSuiAddress(), SUI_COIN_TYPE)
    if (Option.isNone(pool)) return yield* Effect.die("no pool")
    const granted = yield* execute(
      (yield* chain.buildCreateGrant({
        sender: owner.toSuiAddress(),
        pool: pool.value,
        grantId: `g_reads_${seed}`,
        deadlineMs: BigInt(yield* Clock.currentTimeMillis) + 3_600_000n,
        delegate: delegate.toSuiAddress(),
        sessionCap: 500n,
        maxPerPayment: 100n,
        expiryMs: 0n,
        window: { kind: WindowKind.period, periodMs: 86_400_000n, limit: 200n },
        recipients: [],
        policyIds: [3n, 4n]
      })).txKindBytes,
      owner
    )
    const grantId = granted.effects.changedObjects.find((change) => change.idOperation === "Created")?.objectId
    if (grantId === undefined) return yield* Effect.die("no grant created")
    return { owner, delegate, pool: pool.value, grantId, granted }
  })

layer(ledgerLayer())("LocalLedger's gRPC-web front answers reads as a node does", (it) => {
  it.effect("BatchGetObjects: a Grant's contents parse as Structs.Grant, and a missing id is NOT_FOUND in its slot", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { owner, delegate, pool, grantId, granted } = yield* grantFixture(61)
      const { objects } = yield* promise(() => client.core.getObjects({ objectIds: [grantId, MISSING], include: { content: true, previousTransaction: true } }))
      const [grant, missing] = objects
      if (grant === undefined || grant instanceof Error) return assert.fail(`no grant: ${String(grant)}`)
      assert.strictEqual(grant.type, normalizeStructTag(grantType(PKG.originalId)))
      assert.strictEqual(grant.owner.$kind, "Shared")
      assert.strictEqual(grant.previousTransaction, granted.digest)
      if (grant.content === undefined) return assert.fail("no contents")
      const fields = Structs.Grant.parse(grant.content)
      assert.deepStrictEqual(fields, {
        id: grantId,
        version: String(PACKAGE_VERSION),
        pool_id: pool.poolId,
        owner: owner.toSuiAddress(),
        delegate: delegate.toSuiAddress(),
        session_cap: "500",
        spent: "0",
        max_per_payment: "100",
        expiry_ms: "0",
        window: { kind: WindowKind.period, period_ms: "86400000", limit: "200", start_ms: fields.window.start_ms, spent: "0" },
        recipients: [],
        paused: false,
        revoked: false,
        policy_ids: ["3", "4"],
        kind: 0
      })
      assert.isTrue(missing instanceof ObjectError && missing.reason === "notFound", String(missing))
    }))

  it.effect("GetDatatype describes spend_account::Grant field by field, and a type the module lacks is NOT_FOUND", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const response = yield* promise(() => client.movePackageService.getDatatype({ packageId: PKG.publishedAt, moduleName: MODULE, name: "Grant" }).response)
      const datatype = response.datatype
      assert.strictEqual(datatype?.typeName, `${PKG.originalId}::${MODULE}::Grant`)
      assert.strictEqual(datatype?.definingId, PKG.originalId)
      // The fields, in order, are exactly the BCS layout of the object's contents.
      const { grantId } = yield* grantFixture(62)
      const { objects } = yield* promise(() => client.core.getObjects({ objectIds: [grantId], include: { content: true } }))
      const [grant] = objects
      if (grant === undefined || grant instanceof Error || grant.content === undefined) return assert.fail("no grant")
      assert.deepStrictEqual(datatype?.fields.map((f) => f.name), Object.keys(Structs.Grant.parse(grant.content)))
      assert.strictEqual(yield* statusOf(() => client.movePackageService.getDatatype({ packageId: PKG.publishedAt, moduleName: MODULE, name: "Nope" }).response), "NOT_FOUND")
    }))

  it.effect("GetCoinInfo: SUI's metadata; a coin type without metadata is NOT_FOUND", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { coinMetadata } = yield* promise(() => client.core.getCoinMetadata({ coinType: SUI_COIN_TYPE }))
      assert.deepStrictEqual(coinMetadata && { decimals: coinMetadata.decimals, symbol: coinMetadata.symbol, name: coinMetadata.name }, {
        decimals: 9,
        symbol: "SUI",
        name: "Sui"
      })
      assert.strictEqual(yield* statusOf(() => client.stateService.getCoinInfo({ coinType: TEST_COIN }).response), "NOT_FOUND")
      assert.isNull((yield* promise(() => client.core.getCoinMetadata({ coinType: TEST_COIN }))).coinMetadata)
    }))

  it.effect("GetCoinInfo: a minted coin type has the metadata its first mint gave, which no later mint can change", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ledger = yield* LocalLedger
      const holder = seededEd25519(64, 0).toSuiAddress()
      const metadataOf = promise(() => client.core.getCoinMetadata({ coinType: PUBLISHED_COIN })).pipe(Effect.map(({ coinMetadata }) => coinMetadata))
      yield* ledger.mint(holder, PUBLISHED_COIN, 1n, { decimals: 6, description: "A dollar" })
      const published = { id: null, decimals: 6, name: "USDC", symbol: "USDC", description: "A dollar", iconUrl: "" }
      assert.deepStrictEqual(yield* metadataOf, published)

      // The same metadata again (defaults and all), or none, mints as before.
      yield* ledger.mint(holder, PUBLISHED_COIN, 2n, { decimals: 6, symbol: "USDC", description: "A dollar" })
      yield* ledger.mint(holder, PUBLISHED_COIN, 4n)
      // Other metadata is refused, and mints nothing.
      for (const other of [{ decimals: 9, description: "A dollar" }, { decimals: 6, name: "Dollar", description: "A dollar" }]) {
        const refused = yield* Effect.flip(ledger.mint(holder, PUBLISHED_COIN, 8n, other))
        assert.strictEqual(refused._tag, "LedgerRejected")
        assert.include(refused.reason, "fixed once published")
      }
      assert.deepStrictEqual(yield* metadataOf, published)
      const { balance } = yield* promise(() => client.core.getBalance({ owner: holder, coinType: PUBLISHED_COIN }))
      assert.strictEqual(balance.balance, "7")
      // Decimals Sui could not publish (not a u8) are refused too.
      assert.strictEqual((yield* Effect.flip(ledger.mint(holder, `0x${"c3".padEnd(64, "0")}::big::BIG`, 1n, { decimals: 256 })))._tag, "LedgerRejected")
    }))

  it.effect("ListBalances: one total per coin type, paged to the end", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ledger = yield* LocalLedger
      const holder = seededEd25519(63, 0)
      yield* fund(holder)
      for (const amount of [5n, 7n]) yield* ledger.mint(holder.toSuiAddress(), TEST_COIN, amount)
      const whole = yield* promise(() => client.core.listBalances({ owner: holder.toSuiAddress() }))
      const expected = [
        { coinType: normalizeStructTag(SUI_COIN_TYPE), balance: "10000000000" },
        { coinType: normalizeStructTag(TEST_COIN), balance: "12" }
      ].sort((a, b) => a.coinType.localeCompare(b.coinType))
      assert.deepStrictEqual(whole.balances.map((b) => ({ coinType: b.coinType, balance: b.balance })), expected)
      assert.isFalse(whole.hasNextPage)
      const paged: Array<string> = []
      let cursor: string | null = null
      do {
        const page: Awaited<ReturnType<typeof client.core.listBalances>> = yield* promise(() => client.core.listBalances({ owner: holder.toSuiAddress(), limit: 1, cursor }))
        assert.isAtMost(page.balances.length, 1)
        paged.push(...page.balances.map((b) => b.coinType))
        cursor = page.hasNextPage ? page.cursor : null
      } while (cursor !== null)
      assert.deepStrictEqual(paged, expected.map((b) => b.coinType))
    }))

  it.effect("GetCheckpoint by sequence number and by digest answers the same checkpoint, with the transactions it made final", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { granted } = yield* grantFixture(64)
      const readMask = { paths: ["sequence_number", "digest", "summary.sequence_number", "summary.previous_digest", "transactions.digest"] }
      const sequenceNumber = BigInt(granted.checkpoint ?? -1)
      const bySequence = (yield* promise(() =>
        client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber }, readMask }).response
      )).checkpoint
      assert.strictEqual(bySequence?.sequenceNumber, sequenceNumber)
      assert.strictEqual(bySequence?.summary?.sequenceNumber, sequenceNumber)
      assert.deepStrictEqual(bySequence?.transactions.map((tx) => tx.digest), [granted.digest])
      const digest = bySequence?.digest ?? ""
      const byDigest = (yield* promise(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "digest", digest }, readMask }).response)).checkpoint
      assert.deepStrictEqual(byDigest, bySequence)
      const previous = (yield* promise(() =>
        client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber: sequenceNumber - 1n }, readMask }).response
      )).checkpoint
      assert.strictEqual(bySequence?.summary?.previousDigest, previous?.digest, "checkpoints chain by digest")
      assert.strictEqual(
        yield* statusOf(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "sequenceNumber", sequenceNumber: 1_000_000n } }).response),
        "NOT_FOUND"
      )
      assert.strictEqual(yield* statusOf(() => client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: "digest", digest: granted.digest } }).response), "NOT_FOUND")
    }))

  it.effect("BatchGetTransactions: each digest in its slot, an unknown one NOT_FOUND there, fields as the mask asks", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const { granted } = yield* grantFixture(65)
      const unknown = "11111111111111111111111111111111"
      const response = yield* promise(() =>
        client.ledgerService.batchGetTransactions({ digests: [granted.digest, unknown], readMask: { paths: ["digest", "checkpoint"] } }).response
      )
      const [found, missing] = response.transactions
      assert.strictEqual(found?.result.oneofKind, "transaction")
      if (found?.result.oneofKind === "transaction") {
        assert.strictEqual(found.result.transaction.digest, granted.digest)
        assert.strictEqual(String(found.result.transaction.checkpoint), granted.checkpoint)
        assert.isUndefined(found.result.transaction.effects, "effects were not asked for")
      }
      assert.strictEqual(missing?.result.oneofKind, "error")
      if (missing?.result.oneofKind === "error") assert.strictEqual(missing.result.error.code, GrpcStatusCode.NOT_FOUND)
    }))

  it.effect("a Move abort lands with an explicit budget and reads back as Sui words it, its mutable inputs at new versions", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const chain = yield* Chain
      const { owner, delegate, pool, grantId } = yield* grantFixture(66)
      const paused = yield* execute((yield* chain.buildPause({ sender: owner.toSuiAddress(), grantObjectId: grantId, kind: 0 })).txKindBytes, owner)
      assert.isTrue(paused.status.success)
      const before = yield* promise(() => client.core.getObjects({ objectIds: [grantId, pool.poolId], include: { content: true } }))

      const kind = yield* chain.buildPay({ sender: delegate.toSuiAddress(), grantObjectId: grantId, amount: 10n, recipient: owner.toSuiAddress(), memo: new Uint8Array() })
      const failed = yield* execute(kind.txKindBytes, delegate, 50_000_000n)
      const { status } = failed
      if (status.success) return assert.fail("pay on a paused grant succeeded")
      assert.strictEqual(status.error.$kind, "MoveAbort")
      assert.strictEqual(status.error.MoveAbort?.abortCode, String(AbortCode.EPaused))
      assert.match(
        status.error.message,
        new RegExp(`^MoveAbort in 1st command, abort code: 3, in '${normalizeSuiAddress(PKG.publishedAt)}::${MODULE}::pay' \\(instruction \\d+\\)$`)
      )
      assert.isNotNull(failed.checkpoint, "a failed transaction is final like any other")

      // Through getTransaction too, as a reader that did not execute it sees it.
      const read = yield* promise(() => client.core.getTransaction({ digest: failed.digest, include: { effects: true } }))
      assert.strictEqual(read.$kind, "FailedTransaction")
      const effects = read.FailedTransaction?.effects
      if (effects === undefined) return assert.fail("no effects")
      assert.strictEqual(effects.status.error?.message, status.error.message)
      const lamport = effects.lamportVersion ?? ""
      const written = new Map(effects.changedObjects.map((change) => [change.objectId, change]))
      for (const id of [grantId, pool.poolId, effects.gasObject?.objectId ?? ""]) {
        const change = written.get(id)
        assert.strictEqual(change?.outputVersion, lamport, `${id} is written at the lamport version`)
        assert.isBelow(Number(change?.inputVersion), Number(lamport))
      }
      assert.isTrue(effects.changedObjects.every((change) => change.idOperation === "None"), "an abort creates and deletes nothing")

      // At new versions, with their contents as they were: the abort rolled back everything but gas.
      const after = yield* promise(() => client.core.getObjects({ objectIds: [grantId, pool.poolId], include: { content: true } }))
      const shape = (objects: typeof before.objects) => objects.map((o) => (o instanceof Error ? o.message : { version: o.version, content: o.content }))
      assert.deepStrictEqual(shape(after.objects).map((o) => (typeof o === "string" ? o : o.version)), [lamport, lamport])
      assert.deepStrictEqual(shape(after.objects).map((o) => (typeof o === "string" ? o : o.content)), shape(before.objects).map((o) => (typeof o === "string" ? o : o.content)))
    }))
})
