import { blake2b } from "@noble/hashes/blake2.js"
import { TransactionError } from "@mysten/sui/client"
import type { Keypair } from "@mysten/sui/cryptography"
import { RpcError } from "@mysten/sui/grpc"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { Secp256r1Keypair } from "@mysten/sui/keypairs/secp256r1"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase58, fromBase64, normalizeStructTag, toBase64, toHex } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { coinObjectType, Events, nonceBytes, poolIdOf, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { FAUCET_AMOUNT } from "../src/Faucet.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import { Client, execute, fund, ledgerLayer, PKG, promise, type ReadBack, readTransaction, seededEd25519, seededSecret } from "./LedgerHarness.ts"

// === Helpers ===

const schemes: ReadonlyArray<readonly [string, (role: number) => Keypair]> = [
  ["Ed25519", (role) => seededEd25519(25519, role)],
  ["Secp256k1", (role) => Secp256k1Keypair.fromSecretKey(seededSecret(256_1, role))],
  ["Secp256r1", (role) => Secp256r1Keypair.fromSecretKey(seededSecret(256_2, role))]
]

const registry = { objectId: PKG.registryId, initialSharedVersion: 1n }

/** Sui's object id derivation, computed here by hand: Blake2b-256(0xf1 ‖ tx digest ‖ creation index as u64 LE). */
const suiObjectId = (digest: string, index: number) => {
  const input = new Uint8Array(1 + 32 + 8)
  input[0] = 0xf1
  input.set(fromBase58(digest), 1)
  new DataView(input.buffer).setBigUint64(33, BigInt(index), true)
  return `0x${toHex(blake2b(input, { dkLen: 32 }))}`
}

/** Sui's digest by both of @mysten/sui's routes, and the address Sui's verifier recovers from the signature. */
const suiView = (bytes: Uint8Array, signature: string, address: string) =>
  Effect.gen(function*() {
    const fromBuilder = TransactionDataBuilder.getDigestFromBytes(bytes)
    const fromTransaction = yield* promise(() => Transaction.from(bytes).getDigest())
    const publicKey = yield* promise(() => verifyTransactionSignature(bytes, signature, { address }))
    return { fromBuilder, fromTransaction, signer: publicKey.toSuiAddress() }
  })

/** Whether Sui's verifier accepts `signature` over `bytes` for `address`. */
const suiAccepts = (bytes: Uint8Array, signature: string, address: string) =>
  promise(() => verifyTransactionSignature(bytes, signature, { address }).then(() => true, () => false))

/** The signer's one SUI coin, as a transaction names it for gas, read through the client. */
const gasRef = (signer: Keypair) =>
  Effect.gen(function*() {
    const client = yield* Client
    const [coin] = (yield* promise(() => client.core.listCoins({ owner: signer.toSuiAddress() }))).objects
    if (coin === undefined) return yield* Effect.die(`${signer.toSuiAddress()} has no gas`)
    return { objectId: coin.objectId, version: coin.version, digest: coin.digest }
  })

/** A hand-built SplitCoins + TransferObjects from the gas coin, complete with gas, as bytes. */
const splitAndTransfer = (input: {
  readonly sender: string
  readonly gas: { objectId: string; version: string; digest: string }
  readonly amount: bigint
  readonly recipient: string
}) => {
  const tx = new Transaction()
  tx.setSender(input.sender)
  tx.setGasPayment([input.gas])
  tx.setGasPrice(1000n)
  tx.setGasBudget(10_000_000n)
  const [coin] = tx.splitCoins(tx.gas, [input.amount])
  if (coin === undefined) throw new Error("splitCoins returned nothing")
  tx.transferObjects([coin], input.recipient)
  return promise(() => tx.build())
}

/** Signed bytes sent as a wallet that builds its own transactions does: ExecuteTransaction. */
const executeSigned = (bytes: Uint8Array, signature: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    return yield* Effect.tryPromise({
      try: () => client.core.executeTransaction({ transaction: bytes, signatures: [signature], include: { effects: true } }),
      catch: (error) => error
    })
  })

/** Every object an address owns, as the node lists it. */
const owned = (address: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    return (yield* promise(() => client.core.listOwnedObjects({ owner: address, include: { content: true } }))).objects
  })

/** Everything a refused transaction could have touched: the addresses' objects, the Registry, the latest checkpoint. */
const ledgerState = (addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* Client
    return {
      owned: yield* Effect.forEach(addresses, owned),
      registry: (yield* promise(() => client.core.getObjects({ objectIds: [PKG.registryId] }))).objects,
      checkpoint: (yield* (yield* LocalLedger).latestCheckpoint).digest
    }
  })

/** Submits signed bytes that must be refused: INVALID_ARGUMENT, nothing recorded, nothing changed. */
const expectRejected = (bytes: Uint8Array, signature: string, addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const client = yield* Client
    yield* ledger.checkpoint
    const before = yield* ledgerState(addresses)
    const refused = yield* Effect.flip(executeSigned(bytes, signature))
    if (!(refused instanceof RpcError)) return assert.fail(`not an RpcError: ${String(refused)}`)
    assert.strictEqual(refused.code, "INVALID_ARGUMENT")
    const digest = TransactionDataBuilder.getDigestFromBytes(bytes)
    const lookup = yield* Effect.flip(Effect.tryPromise({ try: () => client.core.getTransaction({ digest }), catch: (e) => e }))
    assert.isTrue(lookup instanceof TransactionError && lookup.reason === "notFound", "a refused transaction is not recorded")
    yield* ledger.checkpoint
    assert.deepStrictEqual(yield* ledgerState(addresses), before, "a refused transaction changes nothing")
    return refused.message
  })

const eventOf = (tx: ReadBack) => {
  const [event] = tx.events
  if (event === undefined) throw new Error("no event")
  return event.bcs
}

/** A shared ref to `objectId`, as the node reports its owner. */
const sharedRef = (objectId: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    const { object } = yield* promise(() => client.core.getObject({ objectId }))
    if (object.owner.$kind !== "Shared") return yield* Effect.die(`${objectId} is not shared`)
    return { objectId, initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) }
  })

const hourFromNow = Effect.map(Clock.currentTimeMillis, (now) => BigInt(now) + 3_600_000n)

// === Tests ===

describe("LocalLedger agrees with @mysten/sui", () => {
  for (const [scheme, key] of schemes) {
    describe(scheme, () => {
      it.live("gives every Kinds.ts kind, completed and signed by the client, Sui's digest and a signature Sui accepts", () =>
        Effect.gen(function*() {
          const owner = key(1)
          const delegate = key(2)
          const recipient = key(3).toSuiAddress()
          for (const signer of [owner, delegate]) yield* fund(signer)
          const digests = new Set<string>()
          const deadlineMs = yield* hourFromNow

          /** Runs one kind as `signer` and checks the bytes and signature the node recorded against Sui's own view of them. */
          const run = (kind: Kinds.PreparedKind, signer: Keypair) =>
            Effect.gen(function*() {
              const tx = yield* execute(kind.txKindBytes, signer)
              assert.isTrue(tx.status.success, tx.status.error?.message)
              const [signature] = tx.signatures
              if (signature === undefined) return yield* Effect.die("no signature recorded")
              const sui = yield* suiView(tx.bcs, signature, signer.toSuiAddress())
              assert.deepStrictEqual(sui, { fromBuilder: tx.digest, fromTransaction: tx.digest, signer: signer.toSuiAddress() })
              digests.add(tx.digest)
              return tx
            })

          const created = yield* run(
            yield* promise(() => Kinds.fundPool(PKG, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n, pool: undefined, registry, coins: [] })),
            owner
          )
          const poolId = Events.PoolCreated.parse(eventOf(created)).pool_id
          assert.strictEqual(poolId, poolIdOf(PKG, owner.toSuiAddress(), SUI_COIN_TYPE), "the pool sits at its derived id")
          const pool = yield* sharedRef(poolId)

          yield* run(yield* promise(() => Kinds.fundPool(PKG, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 500n, pool, registry, coins: [] })), owner)
          const grantTx = yield* run(
            yield* promise(() =>
              Kinds.createPolicyGrant(PKG, {
                sender: owner.toSuiAddress(),
                grantId: "g_compat",
                deadlineMs,
                registry,
                pool,
                coinType: SUI_COIN_TYPE,
                delegate: delegate.toSuiAddress(),
                sessionCap: 300n,
                maxPerPayment: 100n,
                expiryMs: 0n,
                window: { kind: WindowKind.none },
                recipients: [],
                policyIds: [7n]
              })
            ),
            owner
          )
          const grantCreated = Events.GrantCreated.parse(eventOf(grantTx))
          assert.deepStrictEqual(grantCreated.nonce, [...nonceBytes("g_compat")], "the create's nonce is the gateway's grant id")
          const grant = yield* sharedRef(grantCreated.grant_id)

          yield* run(yield* promise(() => Kinds.pauseGrant(PKG, { sender: owner.toSuiAddress(), registry, grant, kind: 0 })), owner)
          yield* run(yield* promise(() => Kinds.resumeGrant(PKG, { sender: owner.toSuiAddress(), registry, grant, kind: 0 })), owner)
          yield* run(
            yield* promise(() =>
              Kinds.pay(PKG, { sender: delegate.toSuiAddress(), registry, grant, pool, coinType: SUI_COIN_TYPE, amount: 60n, recipient, memo: new Uint8Array([1, 2]) })
            ),
            delegate
          )
          yield* run(yield* promise(() => Kinds.revokeGrant(PKG, { sender: owner.toSuiAddress(), registry, grant })), owner)
          assert.strictEqual(digests.size, 7)
        }).pipe(Effect.provide(ledgerLayer())))

      it.live("gives a hand-built SplitCoins + TransferObjects Sui's digest, and the new coin Sui's object id", () =>
        Effect.gen(function*() {
          const sender = key(4)
          const recipient = key(5).toSuiAddress()
          yield* fund(sender)
          const bytes = yield* splitAndTransfer({ sender: sender.toSuiAddress(), gas: yield* gasRef(sender), amount: 1234n, recipient })
          const { signature } = yield* promise(() => sender.signTransaction(bytes))
          const executed = yield* Effect.orDie(executeSigned(bytes, signature))
          assert.strictEqual(executed.$kind, "Transaction")
          const digest = executed.Transaction?.digest ?? ""
          const sui = yield* suiView(bytes, signature, sender.toSuiAddress())
          assert.deepStrictEqual(sui, { fromBuilder: digest, fromTransaction: digest, signer: sender.toSuiAddress() })
          const received = yield* owned(recipient)
          assert.deepStrictEqual(
            received.map((o) => [o.objectId, o.type, o.content === undefined ? "" : Structs.Coin.parse(o.content).balance.value]),
            [[suiObjectId(digest, 0), normalizeStructTag(coinObjectType(SUI_COIN_TYPE)), "1234"]]
          )
        }).pipe(Effect.provide(ledgerLayer())))

      it.live("refuses a tampered signature, another key's signature, a stale gas version and a wrong sender, changing nothing", () =>
        Effect.gen(function*() {
          const signer = key(1)
          const other = key(2)
          const recipient = key(3).toSuiAddress()
          const everyone = [signer.toSuiAddress(), other.toSuiAddress(), recipient]
          for (const k of [signer, other]) yield* fund(k)
          const gas = yield* gasRef(signer)
          const bytes = yield* splitAndTransfer({ sender: signer.toSuiAddress(), gas, amount: 10n, recipient })
          const { signature } = yield* promise(() => signer.signTransaction(bytes))

          // A flipped byte inside the signature proper (after the scheme flag).
          const tampered = fromBase64(signature)
          tampered[5] = (tampered[5] ?? 0) ^ 0xff
          assert.isFalse(yield* suiAccepts(bytes, toBase64(tampered), signer.toSuiAddress()))
          assert.match(yield* expectRejected(bytes, toBase64(tampered), everyone), /no valid signature/)

          // The same bytes signed by another key.
          const byOther = (yield* promise(() => other.signTransaction(bytes))).signature
          assert.isFalse(yield* suiAccepts(bytes, byOther, signer.toSuiAddress()))
          assert.match(yield* expectRejected(bytes, byOther, everyone), /no valid signature/)

          // A transaction that names `other` as its sender (with other's gas), signed by `signer`.
          const foreign = yield* splitAndTransfer({ sender: other.toSuiAddress(), gas: yield* gasRef(other), amount: 10n, recipient })
          const foreignSig = (yield* promise(() => signer.signTransaction(foreign))).signature
          assert.isFalse(yield* suiAccepts(foreign, foreignSig, other.toSuiAddress()))
          assert.match(yield* expectRejected(foreign, foreignSig, everyone), /no valid signature/)

          // The refusals consumed nothing: the genuine transaction still runs, once.
          const executed = yield* Effect.orDie(executeSigned(bytes, signature))
          assert.strictEqual(executed.$kind, "Transaction")

          // Another transaction naming the same, now consumed, gas version: well signed, stale.
          const stale = yield* splitAndTransfer({ sender: signer.toSuiAddress(), gas, amount: 11n, recipient })
          const staleSig = (yield* promise(() => signer.signTransaction(stale))).signature
          assert.isTrue(yield* suiAccepts(stale, staleSig, signer.toSuiAddress()), "the signature itself is fine")
          assert.match(yield* expectRejected(stale, staleSig, everyone), /is not at version/)
        }).pipe(Effect.provide(ledgerLayer())))
    })
  }

  it.live("derives the grant and payment ids as Sui does, Blake2b-256(0xf1 ‖ digest ‖ u64 LE index), and the pool's from the Registry", () =>
    Effect.gen(function*() {
      const owner = seededEd25519(11, 0)
      const delegate = seededEd25519(11, 1)
      const recipient = seededEd25519(11, 2).toSuiAddress()
      for (const k of [owner, delegate]) yield* fund(k)

      // create_pool: the pool's id is claimed from the Registry under (owner, T); the coin split off gas is creation 0.
      const poolTx = yield* execute(
        (yield* promise(() => Kinds.fundPool(PKG, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n, pool: undefined, registry, coins: [] })))
          .txKindBytes,
        owner
      )
      const poolId = Events.PoolCreated.parse(eventOf(poolTx)).pool_id
      assert.strictEqual(poolId, poolIdOf(PKG, owner.toSuiAddress(), SUI_COIN_TYPE))
      assert.notStrictEqual(poolId, suiObjectId(poolTx.digest, 1), "a pool's id does not depend on the transaction that made it")
      const pool = yield* sharedRef(poolId)

      // create_policy_grant: the grant is creation 0.
      const deadlineMs = yield* hourFromNow
      const grantTx = yield* execute(
        (yield* promise(() =>
          Kinds.createPolicyGrant(PKG, {
            sender: owner.toSuiAddress(),
            grantId: "g_ids",
            deadlineMs,
            registry,
            pool,
            coinType: SUI_COIN_TYPE,
            delegate: delegate.toSuiAddress(),
            sessionCap: 100n,
            maxPerPayment: 10n,
            expiryMs: 0n,
            window: { kind: WindowKind.none },
            recipients: [],
            policyIds: []
          })
        )).txKindBytes,
        owner
      )
      const grantId = Events.GrantCreated.parse(eventOf(grantTx)).grant_id
      assert.strictEqual(grantId, suiObjectId(grantTx.digest, 0))
      const grant = yield* sharedRef(grantId)

      // pay: the recipient's coin is creation 0.
      const payTx = yield* execute(
        (yield* promise(() =>
          Kinds.pay(PKG, { sender: delegate.toSuiAddress(), registry, grant, pool, coinType: SUI_COIN_TYPE, amount: 5n, recipient, memo: new Uint8Array() })
        )).txKindBytes,
        delegate
      )
      assert.isTrue(payTx.status.success, payTx.status.error?.message)
      assert.deepStrictEqual((yield* owned(recipient)).map((o) => o.objectId), [suiObjectId(payTx.digest, 0)])
    }).pipe(Effect.provide(ledgerLayer())))

  it.live("hands the whole gas coin over when a transaction transfers it (TransferObjects of GasCoin)", () =>
    Effect.gen(function*() {
      const sender = seededEd25519(1, 21)
      const recipient = seededEd25519(1, 22).toSuiAddress()
      const minted = yield* fund(sender)
      const tx = new Transaction()
      tx.setSender(sender.toSuiAddress())
      tx.setGasPayment([yield* gasRef(sender)])
      tx.setGasPrice(1000n)
      tx.setGasBudget(10_000_000n)
      tx.transferObjects([tx.gas], recipient)
      const bytes = yield* promise(() => tx.build())
      const { signature } = yield* promise(() => sender.signTransaction(bytes))
      const executed = yield* Effect.orDie(executeSigned(bytes, signature))
      assert.strictEqual(executed.$kind, "Transaction")
      const read = yield* readTransaction(executed.Transaction?.digest ?? "")
      const gas = read.effects.gasUsed
      const charged = BigInt(gas.computationCost) + BigInt(gas.storageCost) - BigInt(gas.storageRebate)
      assert.deepStrictEqual(yield* owned(sender.toSuiAddress()), [])
      const received = yield* owned(recipient)
      assert.deepStrictEqual(
        received.map((o) => [o.objectId, o.content === undefined ? -1n : BigInt(Structs.Coin.parse(o.content).balance.value)]),
        [[minted, FAUCET_AMOUNT - charged]]
      )
    }).pipe(Effect.provide(ledgerLayer())))
})
