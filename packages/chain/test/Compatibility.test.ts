import { blake2b } from "@noble/hashes/blake2.js"
import type { Keypair } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { Secp256r1Keypair } from "@mysten/sui/keypairs/secp256r1"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase58, fromBase64, toBase64, toHex } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { signAndExecuteKind } from "@gateway/client/OwnerWallet"
import { Events, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "../src/build/Kinds.ts"
import type { LedgerObject } from "../src/local/LedgerObject.ts"
import { localLedgerAccess } from "../src/local/LocalLedgerAccess.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"
import { fund, PACKAGE, runOnLedger, seededSecret } from "./LedgerHarness.ts"

// === Helpers ===

const schemes: ReadonlyArray<readonly [string, (role: number) => Keypair]> = [
  ["Ed25519", (role) => Ed25519Keypair.fromSecretKey(seededSecret(25519, role))],
  ["Secp256k1", (role) => Secp256k1Keypair.fromSecretKey(seededSecret(256_1, role))],
  ["Secp256r1", (role) => Secp256r1Keypair.fromSecretKey(seededSecret(256_2, role))]
]

/** Sui's object id derivation, computed here by hand: Blake2b-256(0xf1 ‖ tx digest ‖ creation index as u64 LE). */
const suiObjectId = (digest: string, index: number) => {
  const input = new Uint8Array(1 + 32 + 8)
  input[0] = 0xf1
  input.set(fromBase58(digest), 1)
  new DataView(input.buffer).setBigUint64(33, BigInt(index), true)
  return `0x${toHex(blake2b(input, { dkLen: 32 }))}`
}

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** The ledger as a wallet sees it, recording every signed transaction it submits. */
const recordingAccess = Effect.gen(function*() {
  const access = yield* localLedgerAccess
  const submitted: Array<{ readonly txBytes: string; readonly signature: string }> = []
  return {
    submitted,
    access: {
      ...access,
      submit: (txBytes: string, signatures: ReadonlyArray<string>) => {
        submitted.push({ txBytes, signature: signatures[0] ?? "" })
        return access.submit(txBytes, signatures)
      }
    }
  }
})

/** The signer's one SUI coin, as a transaction names it for gas. */
const gasRef = (signer: Keypair) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const coin = (yield* ledger.ownedObjects(signer.toSuiAddress())).find((o) => o.data._tag === "Coin")
    if (coin === undefined) return yield* Effect.die(`${signer.toSuiAddress()} has no gas`)
    return { objectId: coin.id, version: coin.version.toString(), digest: coin.digest }
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

/** Everything a refused transaction could have touched. */
const ledgerState = (addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const owned = yield* Effect.forEach(addresses, (a) => ledger.ownedObjects(a))
    const sortById = (objects: ReadonlyArray<LedgerObject>) => [...objects].sort((a, b) => a.id.localeCompare(b.id))
    return {
      owned: owned.map(sortById),
      shared: sortById(yield* ledger.finalSharedObjects),
      checkpoint: yield* ledger.latestCheckpoint
    }
  })

/** Submits signed bytes that must be refused: LedgerRejected, nothing recorded, nothing changed. */
const expectRejected = (bytes: Uint8Array, signature: string, addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    yield* ledger.checkpoint
    const before = yield* ledgerState(addresses)
    const refused = yield* Effect.flip(ledger.executeSigned(toBase64(bytes), [signature]))
    assert.strictEqual(refused._tag, "LedgerRejected")
    assert.isTrue(Option.isNone(yield* ledger.getRaw(TransactionDataBuilder.getDigestFromBytes(bytes))), "a refused transaction is not recorded")
    yield* ledger.checkpoint
    assert.deepStrictEqual(yield* ledgerState(addresses), before, "a refused transaction changes nothing")
    return refused._tag === "LedgerRejected" ? refused.reason : ""
  })

// === Tests ===

describe("LocalLedger agrees with @mysten/sui", () => {
  for (const [scheme, key] of schemes) {
    describe(scheme, () => {
      it("gives every Kinds.ts kind, completed and signed by signAndExecuteKind, Sui's digest and a signature Sui accepts", () =>
        runOnLedger(Effect.gen(function*() {
          const ledger = yield* LocalLedger
          const { submitted, access } = yield* recordingAccess
          const owner = key(1)
          const delegate = key(2)
          const recipient = key(3).toSuiAddress()
          for (const signer of [owner, delegate]) yield* fund(signer)

          /** Runs one kind as `signer` and checks it against Sui's own view of the signed bytes. */
          const run = (txKindBytes: string, signer: Keypair) =>
            Effect.gen(function*() {
              const digest = yield* signAndExecuteKind(txKindBytes, signer, access)
              yield* ledger.checkpoint
              const signed = submitted.at(-1)
              if (signed === undefined) return yield* Effect.die("nothing was submitted")
              const sui = yield* suiView(fromBase64(signed.txBytes), signed.signature, signer.toSuiAddress())
              assert.deepStrictEqual(sui, { fromBuilder: digest, fromTransaction: digest, signer: signer.toSuiAddress() })
              const tx = yield* ledger.getTransaction(digest)
              assert.strictEqual(tx.status, "success", tx.error ?? "")
              return tx
            })
          const eventOf = (tx: { readonly events: ReadonlyArray<{ readonly bcs: string }> }) => {
            const [event] = tx.events
            if (event === undefined) throw new Error("no event")
            return fromBase64(event.bcs)
          }

          const created = yield* run((yield* promise(() =>
            Kinds.fundPool(PACKAGE, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n, pool: undefined, coins: [] })
          )).txKindBytes, owner)
          const poolId = Events.PoolCreated.parse(eventOf(created)).pool_id
          const poolObject = yield* ledger.getObject(poolId)
          if (Option.isNone(poolObject) || poolObject.value.owner._tag !== "Shared") return assert.fail("the pool is not shared")
          const pool = { objectId: poolId, initialSharedVersion: poolObject.value.owner.initialSharedVersion }

          yield* run((yield* promise(() =>
            Kinds.fundPool(PACKAGE, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 500n, pool, coins: [] })
          )).txKindBytes, owner)
          const grantTx = yield* run((yield* promise(() =>
            Kinds.createPolicyGrant(PACKAGE, {
              sender: owner.toSuiAddress(),
              pool,
              coinType: SUI_COIN_TYPE,
              delegate: delegate.toSuiAddress(),
              sessionCap: 300n,
              maxPerPayment: 100n,
              expiryMs: 0n,
              policyIds: [7n]
            })
          )).txKindBytes, owner)
          const grantId = Events.GrantCreated.parse(eventOf(grantTx)).grant_id
          const grantObject = yield* ledger.getObject(grantId)
          if (Option.isNone(grantObject) || grantObject.value.owner._tag !== "Shared") return assert.fail("the grant is not shared")
          const grant = { objectId: grantId, initialSharedVersion: grantObject.value.owner.initialSharedVersion }

          yield* run((yield* promise(() => Kinds.pauseGrant(PACKAGE, { sender: owner.toSuiAddress(), grant, kind: 0 }))).txKindBytes, owner)
          yield* run((yield* promise(() => Kinds.resumeGrant(PACKAGE, { sender: owner.toSuiAddress(), grant, kind: 0 }))).txKindBytes, owner)
          yield* run((yield* promise(() =>
            Kinds.pay(PACKAGE, { sender: delegate.toSuiAddress(), grant, pool, coinType: SUI_COIN_TYPE, amount: 60n, recipient, memo: new Uint8Array([1, 2]) })
          )).txKindBytes, delegate)
          yield* run((yield* promise(() => Kinds.revokeGrant(PACKAGE, { sender: owner.toSuiAddress(), grant }))).txKindBytes, owner)
          assert.strictEqual(submitted.length, 7)
        })))

      it("gives a hand-built SplitCoins + TransferObjects Sui's digest, and the new coin Sui's object id", () =>
        runOnLedger(Effect.gen(function*() {
          const ledger = yield* LocalLedger
          const sender = key(1)
          const recipient = key(2).toSuiAddress()
          yield* fund(sender)
          const bytes = yield* splitAndTransfer({ sender: sender.toSuiAddress(), gas: yield* gasRef(sender), amount: 1234n, recipient })
          const { signature } = yield* promise(() => sender.signTransaction(bytes))
          const executed = yield* ledger.executeSigned(toBase64(bytes), [signature])
          assert.strictEqual(executed.status, "success")
          const sui = yield* suiView(bytes, signature, sender.toSuiAddress())
          assert.deepStrictEqual(sui, { fromBuilder: executed.digest, fromTransaction: executed.digest, signer: sender.toSuiAddress() })
          const received = yield* ledger.ownedObjects(recipient)
          assert.deepStrictEqual(received.map((o) => [o.id, o.data]), [
            [suiObjectId(executed.digest, 0), { _tag: "Coin", coinType: received[0]?.data._tag === "Coin" ? received[0].data.coinType : "", balance: 1234n }]
          ])
        })))

      it("refuses a tampered signature, another key's signature, a stale gas version and a wrong sender, changing nothing", () =>
        runOnLedger(Effect.gen(function*() {
          const ledger = yield* LocalLedger
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
          const executed = yield* ledger.executeSigned(toBase64(bytes), [signature])
          assert.strictEqual(executed.status, "success")

          // Another transaction naming the same, now consumed, gas version: well signed, stale.
          const stale = yield* splitAndTransfer({ sender: signer.toSuiAddress(), gas, amount: 11n, recipient })
          const staleSig = (yield* promise(() => signer.signTransaction(stale))).signature
          assert.isTrue(yield* suiAccepts(stale, staleSig, signer.toSuiAddress()), "the signature itself is fine")
          assert.match(yield* expectRejected(stale, staleSig, everyone), /is not at version/)
        })))
    })
  }

  it("derives the pool, grant and payment ids as Sui does: Blake2b-256(0xf1 ‖ digest ‖ u64 LE index)", () =>
    runOnLedger(Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const access = yield* localLedgerAccess
      const [, key] = schemes[0] ?? ["", () => new Ed25519Keypair()]
      const owner = key(11)
      const delegate = key(12)
      const recipient = key(13).toSuiAddress()
      for (const k of [owner, delegate]) yield* fund(k)
      const run = (kind: Kinds.PreparedKind, signer: Keypair) =>
        Effect.flatMap(signAndExecuteKind(kind.txKindBytes, signer, access), (digest) =>
          Effect.andThen(ledger.checkpoint, ledger.getTransaction(digest)))
      const firstEvent = (tx: { readonly events: ReadonlyArray<{ readonly bcs: string }> }) => fromBase64(tx.events[0]?.bcs ?? "")

      // create_pool: the coin split off gas is creation 0, the pool creation 1.
      const poolTx = yield* run(yield* promise(() =>
        Kinds.fundPool(PACKAGE, { sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: 1_000n, pool: undefined, coins: [] })), owner)
      const poolId = Events.PoolCreated.parse(firstEvent(poolTx)).pool_id
      assert.strictEqual(poolId, suiObjectId(poolTx.digest, 1))
      const poolObject = yield* ledger.getObject(poolId)
      if (Option.isNone(poolObject) || poolObject.value.owner._tag !== "Shared") return assert.fail("no shared pool")
      const pool = { objectId: poolId, initialSharedVersion: poolObject.value.owner.initialSharedVersion }

      // create_policy_grant: the grant is creation 0.
      const grantTx = yield* run(yield* promise(() =>
        Kinds.createPolicyGrant(PACKAGE, {
          sender: owner.toSuiAddress(),
          pool,
          coinType: SUI_COIN_TYPE,
          delegate: delegate.toSuiAddress(),
          sessionCap: 100n,
          maxPerPayment: 10n,
          expiryMs: 0n,
          policyIds: []
        })), owner)
      const grantId = Events.GrantCreated.parse(firstEvent(grantTx)).grant_id
      assert.strictEqual(grantId, suiObjectId(grantTx.digest, 0))
      assert.isTrue(Option.isSome(yield* ledger.getObject(grantId)))

      // pay: the recipient's coin is creation 0.
      const grantObject = yield* ledger.getObject(grantId)
      if (Option.isNone(grantObject) || grantObject.value.owner._tag !== "Shared") return assert.fail("no shared grant")
      const grant = { objectId: grantId, initialSharedVersion: grantObject.value.owner.initialSharedVersion }
      const payTx = yield* run(yield* promise(() =>
        Kinds.pay(PACKAGE, { sender: delegate.toSuiAddress(), grant, pool, coinType: SUI_COIN_TYPE, amount: 5n, recipient, memo: new Uint8Array() })), delegate)
      assert.strictEqual(payTx.status, "success")
      assert.deepStrictEqual((yield* ledger.ownedObjects(recipient)).map((o) => o.id), [suiObjectId(payTx.digest, 0)])
    })))

  it("hands the whole gas coin over when a transaction transfers it (TransferObjects of GasCoin)", () =>
    runOnLedger(Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const sender = Ed25519Keypair.fromSecretKey(seededSecret(1, 21))
      const recipient = Ed25519Keypair.fromSecretKey(seededSecret(1, 22)).toSuiAddress()
      const minted = yield* fund(sender, 5_000_000_000n)
      const tx = new Transaction()
      tx.setSender(sender.toSuiAddress())
      tx.setGasPayment([yield* gasRef(sender)])
      tx.setGasPrice(1000n)
      tx.setGasBudget(10_000_000n)
      tx.transferObjects([tx.gas], recipient)
      const bytes = yield* promise(() => tx.build())
      const { signature } = yield* promise(() => sender.signTransaction(bytes))
      const executed = yield* ledger.executeSigned(toBase64(bytes), [signature])
      assert.strictEqual(executed.status, "success")
      assert.deepStrictEqual(yield* ledger.ownedObjects(sender.toSuiAddress()), [])
      const received = yield* ledger.ownedObjects(recipient)
      assert.deepStrictEqual(received.map((o) => [o.id, o.data._tag === "Coin" ? o.data.balance : -1n]), [[minted.id, 5_000_000_000n - 1_000n * 1_000n]])
    })))
})
