import { bcs } from "@mysten/sui/bcs"
import type { Signer } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { voucherMessage } from "@gateway/domain/chain/SessionVoucher"
import { AbortCode, type EventName, Events, eventType, poolIdOf, type SpendAccountPackage, Structs, SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import { LedgerJournal } from "@gateway/local-ledger/LedgerJournal"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { localTransport } from "@gateway/local-ledger/LocalTransport"
import { createPolicyGrant, fundPool, type SharedRef } from "../src/transactions/Kinds.ts"
import {
  claimAndClose,
  claimSessions,
  closeSession,
  openSession,
  requestClose,
  topUp
} from "../src/transactions/SessionKinds.ts"

const address = (n: string) => `0x${n.padEnd(64, "0")}`
const PKG: SpendAccountPackage = { originalId: address("5e4d"), publishedAt: address("5e4e"), registryId: address("4e6") }
const SUI = normalizeStructTag(SUI_COIN_TYPE)

class Client extends Context.Service<Client, SuiGrpcClient>()("@gateway/chain/test/SessionKinds/Client") {}

/** LocalLedger in process and a `SuiGrpcClient` on its transport. */
const TestLayer = Layer.effect(Client, Effect.map(localTransport, (transport) => new SuiGrpcClient({ network: "localnet", transport }))).pipe(
  Layer.provideMerge(LocalLedger.layer({ pkg: PKG, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
  Layer.provide(LedgerJournal.layerMemory)
)

const keyOf = (n: number) => Ed25519Keypair.fromSecretKey(new Uint8Array(32).fill(n))

const dataOf = (txKindBytes: string) => Transaction.fromKind(fromBase64(txKindBytes)).getData()

const signedTransaction = (txKindBytes: string, signer: Signer) => {
  const transaction = Transaction.fromKind(fromBase64(txKindBytes))
  transaction.setSender(signer.toSuiAddress())
  return { transaction, signer, include: { effects: true, events: true } } as const
}

/** Signs and executes a kind as a wallet does (the node completes its gas), checkpoints, and answers its events. */
const run = (txKindBytes: string, signer: Signer) =>
  Effect.gen(function*() {
    const client = yield* Client
    const result = yield* Effect.promise(() => client.core.signAndExecuteTransaction(signedTransaction(txKindBytes, signer)))
    yield* (yield* LocalLedger).checkpoint
    const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
    assert.isTrue(tx.status.success, tx.status.error?.message)
    return tx.events ?? []
  })

/** Why a kind a wallet signs does not go through: completing its gas dry-runs it, and that aborts. */
const refusal = (txKindBytes: string, signer: Signer) =>
  Effect.flatMap(Client, (client) =>
    Effect.promise(() => client.core.signAndExecuteTransaction(signedTransaction(txKindBytes, signer)).then(() => "executed", (e: unknown) => String(e))))

/** The one event of `name` among `events`, decoded. */
const eventOf = <N extends EventName>(events: ReadonlyArray<{ readonly eventType: string; readonly bcs: Uint8Array }>, name: N) => {
  const found = events.filter((e) => e.eventType === eventType(PKG.originalId, name))
  assert.lengthOf(found, 1, name)
  return Events[name].parse(found[0]?.bcs ?? new Uint8Array()) as ReturnType<(typeof Events)[N]["parse"]>
}

const sharedRef = (objectId: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    const { object } = yield* Effect.promise(() => client.core.getObject({ objectId }))
    if (object.owner.$kind !== "Shared") return yield* Effect.die(`${objectId} is not shared`)
    return { objectId: normalizeSuiAddress(objectId), initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) } satisfies SharedRef
  })

const contentsOf = (objectId: string) =>
  Effect.flatMap(Client, (client) => Effect.promise(() => client.core.getObject({ objectId, include: { content: true } }).then(({ object }) => object.content)))

const suiBalance = (owner: string) =>
  Effect.flatMap(Client, (client) => Effect.promise(() => client.core.getBalance({ owner, coinType: SUI }).then(({ balance }) => BigInt(balance.balance))))

const SENDER = `0x${"1".repeat(64)}`
const REF = (n: string, version: bigint): SharedRef => ({ objectId: `0x${n.repeat(64)}`, initialSharedVersion: version })
const REGISTRY = { objectId: PKG.registryId, initialSharedVersion: 1n }
const GRANT = REF("2", 3n)
const POOL = REF("4", 5n)
const SESSION = REF("6", 7n)
const SESSION_2 = REF("8", 9n)
const OPERATOR = `0x${"e".repeat(64)}`

describe("session kinds", () => {
  it.effect("each kind calls its function with the Registry immutable, what it changes mutable, and a session closed by value mutable", () =>
    Effect.gen(function*() {
      const common = { sender: SENDER, registry: REGISTRY, grant: GRANT, pool: POOL, session: SESSION, coinType: SUI_COIN_TYPE }
      const signature = new Uint8Array(64).fill(1)
      const built = [
        [
          yield* Effect.promise(() => openSession(PKG, { ...common, payee: SENDER, operator: OPERATOR, deposit: 5n, expiryMs: 9n, voucherKey: new Uint8Array(32) })),
          "open_session",
          [false, true, true]
        ],
        [yield* Effect.promise(() => topUp(PKG, { ...common, amount: 5n })), "top_up", [false, true, true, true]],
        [yield* Effect.promise(() => closeSession(PKG, common)), "close_session", [false, true, true, true]],
        [yield* Effect.promise(() => claimAndClose(PKG, { ...common, cumulative: 5n, signature })), "claim_and_close", [false, true, true, true]],
        [yield* Effect.promise(() => requestClose(PKG, common)), "request_close", [false, true, false]]
      ] as const
      for (const [kind, fn, mutability] of built) {
        assert.strictEqual(kind.moveTarget, target(PKG, fn))
        const data = dataOf(kind.txKindBytes)
        const call = data.commands[0]?.MoveCall
        assert.strictEqual(call?.function, fn)
        assert.deepStrictEqual(call?.typeArguments, [SUI])
        const shared = (call?.arguments ?? []).flatMap((arg) => {
          const input = arg.$kind === "Input" ? data.inputs[arg.Input] : undefined
          const object = input?.Object?.SharedObject
          return object === undefined || object === null || object.objectId === normalizeSuiAddress("0x6") ? [] : [object.mutable]
        })
        assert.deepStrictEqual(shared, [...mutability], fn)
      }
    }))

  it.effect("claimSessions claims many sessions in one PTB, naming the Registry once, with each voucher's amount and signature", () =>
    Effect.gen(function*() {
      const claims = [SESSION, SESSION_2].map((session, i) => ({ session, coinType: SUI_COIN_TYPE, cumulative: BigInt(10 + i), signature: new Uint8Array(64).fill(i) }))
      const kind = yield* Effect.promise(() => claimSessions(PKG, { sender: SENDER, registry: REGISTRY, claims }))
      const data = dataOf(kind.txKindBytes)
      assert.deepStrictEqual(data.commands.map((c) => c.MoveCall?.function), ["claim", "claim"])
      assert.lengthOf(data.inputs.filter((i) => i.Object?.SharedObject?.objectId === normalizeSuiAddress(PKG.registryId)), 1)
      const pureAt = (command: number, argument: number) => {
        const arg = data.commands[command]?.MoveCall?.arguments[argument]
        return fromBase64((arg?.$kind === "Input" ? data.inputs[arg.Input]?.Pure?.bytes : undefined) ?? "")
      }
      assert.deepStrictEqual(pureAt(1, 2), bcs.u64().serialize(11n).toBytes())
      assert.deepStrictEqual(pureAt(1, 3), bcs.vector(bcs.u8()).serialize([...new Uint8Array(64).fill(1)]).toBytes())
      const none = yield* Effect.promise(() => claimSessions(PKG, { sender: SENDER, registry: REGISTRY, claims: [] }).then(() => "built", String))
      assert.match(none, /no claims/)
    }))

  it.effect("openSession passes the payee, then the operator, before the deposit, expiry and voucher key", () =>
    Effect.gen(function*() {
      const input = { sender: SENDER, registry: REGISTRY, grant: GRANT, pool: POOL, coinType: SUI_COIN_TYPE, payee: SENDER, operator: OPERATOR }
      const kind = yield* Effect.promise(() => openSession(PKG, { ...input, deposit: 5n, expiryMs: 9n, voucherKey: new Uint8Array(32).fill(7) }))
      const data = dataOf(kind.txKindBytes)
      const pures = (data.commands[0]?.MoveCall?.arguments ?? []).slice(3, 8).map((arg) =>
        fromBase64((arg.$kind === "Input" ? data.inputs[arg.Input]?.Pure?.bytes : undefined) ?? "")
      )
      assert.deepStrictEqual(pures, [
        bcs.Address.serialize(SENDER).toBytes(),
        bcs.Address.serialize(OPERATOR).toBytes(),
        bcs.u64().serialize(5n).toBytes(),
        bcs.u64().serialize(9n).toBytes(),
        bcs.vector(bcs.u8()).serialize([...new Uint8Array(32).fill(7)]).toBytes()
      ])
    }))
})

/** A funded pool of `owner`'s and a policy grant on it to `delegate`, on the ledger: what a session is opened under. */
const grantOnLedger = (owner: Signer, delegate: Signer) =>
  Effect.gen(function*() {
    const registry = yield* sharedRef(PKG.registryId)
    yield* run((yield* Effect.promise(() => fundPool(PKG, { sender: owner.toSuiAddress(), coinType: SUI, amount: 1_000n, pool: undefined, registry, coins: [] }))).txKindBytes, owner)
    const pool = yield* sharedRef(poolIdOf(PKG, owner.toSuiAddress(), SUI))
    const created = yield* run(
      (yield* Effect.promise(() =>
        createPolicyGrant(PKG, {
          sender: owner.toSuiAddress(),
          grantId: "g_session",
          deadlineMs: BigInt(Date.now()) + 60_000n,
          registry,
          pool,
          coinType: SUI,
          delegate: delegate.toSuiAddress(),
          sessionCap: 600n,
          maxPerPayment: 100n,
          expiryMs: 0n,
          window: { kind: WindowKind.none },
          recipients: [],
          policyIds: []
        })
      )).txKindBytes,
      owner
    )
    const grant = yield* sharedRef(eventOf(created, "GrantCreated").grant_id)
    return { registry, grant, pool, coinType: SUI }
  })

describe("a session on the local ledger, end to end", () => {
  it.effect("open, claim with a voucher, top up, claim and close with a final voucher: the payee has what was signed, the rest is back in the pool and off the grant", () =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const [owner, delegate, payee, sessionKey, operator] = [keyOf(11), keyOf(12), keyOf(13), keyOf(14), keyOf(15)]
      for (const key of [owner, delegate, operator]) yield* ledger.faucet(key.toSuiAddress(), 10_000_000_000n)
      const common = yield* grantOnLedger(owner, delegate)
      const { registry, grant, pool } = common

      const opened = yield* run(
        (yield* Effect.promise(() =>
          openSession(PKG, {
            ...common,
            sender: delegate.toSuiAddress(),
            payee: payee.toSuiAddress(),
            operator: operator.toSuiAddress(),
            deposit: 400n,
            expiryMs: BigInt(Date.now()) + 3_600_000n,
            voucherKey: sessionKey.getPublicKey().toRawBytes()
          })
        )).txKindBytes,
        delegate
      )
      const openedEvent = eventOf(opened, "SessionOpened")
      assert.deepStrictEqual([openedEvent.deposit, openedEvent.spent], ["400", "400"])
      assert.deepStrictEqual([openedEvent.payee, openedEvent.operator], [payee.toSuiAddress(), operator.toSuiAddress()])
      const session = yield* sharedRef(openedEvent.session_id)
      const sign = (cumulative: bigint, final = false) => Effect.promise(() => sessionKey.sign(voucherMessage(session.objectId, cumulative, final)))

      // Anyone claims for the payee (here the owner): 150 of the 400.
      const claims = [{ session, coinType: SUI, cumulative: 150n, signature: yield* sign(150n) }]
      const claimed = yield* run((yield* Effect.promise(() => claimSessions(PKG, { sender: owner.toSuiAddress(), registry, claims }))).txKindBytes, owner)
      assert.deepStrictEqual(eventOf(claimed, "SessionClaimed").amount, "150")
      assert.strictEqual(yield* suiBalance(payee.toSuiAddress()), 150n)

      yield* run((yield* Effect.promise(() => topUp(PKG, { ...common, session, sender: delegate.toSuiAddress(), amount: 100n }))).txKindBytes, delegate)
      const held = Structs.Session.parse(yield* contentsOf(session.objectId))
      assert.deepStrictEqual([held.deposit, held.claimed, held.balance.value], ["500", "150", "350"])
      assert.deepStrictEqual([held.payee, held.operator], [payee.toSuiAddress(), operator.toSuiAddress()])

      // Only the payee or the session's operator ends it early: the owner may not, the operator (a gateway's sponsor) may.
      const closing = { ...common, session, cumulative: 420n, signature: yield* sign(420n, true) }
      const byOwner = yield* Effect.promise(() => claimAndClose(PKG, { ...closing, sender: owner.toSuiAddress() }))
      assert.include(yield* refusal(byOwner.txKindBytes, owner), `abort code: ${AbortCode.ENotCloser}, in '${PKG.publishedAt}::spend_account::claim_and_close'`)
      const closed = yield* run((yield* Effect.promise(() => claimAndClose(PKG, { ...closing, sender: operator.toSuiAddress() }))).txKindBytes, operator)
      assert.deepStrictEqual(eventOf(closed, "SessionClaimed").amount, "270")
      const closedEvent = eventOf(closed, "SessionClosed")
      assert.deepStrictEqual([closedEvent.claimed, closedEvent.returned, closedEvent.spent], ["420", "80", "420"])
      assert.strictEqual(yield* suiBalance(payee.toSuiAddress()), 420n)
      assert.strictEqual(Structs.Pool.parse(yield* contentsOf(pool.objectId)).balance.value, "580")
      assert.strictEqual(Structs.Grant.parse(yield* contentsOf(grant.objectId)).spent, "420")
      // The session was taken by value and deleted: a node no longer has it.
      const client = yield* Client
      const gone = yield* Effect.promise(() => client.core.getObject({ objectId: session.objectId }).then(() => "found", () => "gone"))
      assert.strictEqual(gone, "gone")
    }).pipe(Effect.provide(TestLayer)))
})
