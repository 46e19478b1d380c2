import { blake2b } from "@noble/hashes/blake2.js"
import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { executeKind } from "@gateway/client/OwnerWallet"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Chain } from "../src/Chain.ts"
import { LedgerJournal } from "../src/local/LedgerJournal.ts"
import { localLedgerAccess } from "../src/local/LocalLedgerAccess.ts"
import { LocalLedger } from "../src/local/LocalLedger.ts"

export const PACKAGE = `0x${"5e4d".padEnd(64, "0")}`

/** A fresh ledger with manual checkpoints, and the Chain over it. */
export const LedgerLayer = Chain.layerLocal.pipe(
  Layer.provideMerge(LocalLedger.layer({ packageId: PACKAGE, network: "localnet", checkpointIntervalMs: 0, referenceGasPrice: 1000n })),
  Layer.provide(LedgerJournal.layerMemory)
)

/** Runs `self` on a fresh ledger under a TestClock (time moves only by `TestClock.adjust` / `setTime`). */
export const runOnLedger = <A, E>(self: Effect.Effect<A, E, LocalLedger | Chain>) =>
  Effect.runPromise(self.pipe(Effect.provide(LedgerLayer), Effect.provide(TestClock.layer()), Effect.scoped))

/** 32 secret-key bytes that depend only on (seed, role): the same run signs the same bytes. */
export const seededSecret = (seed: number, role: number) => blake2b(new TextEncoder().encode(`ledger-test:${seed}:${role}`), { dkLen: 32 })

export const seededEd25519 = (seed: number, role: number) => Ed25519Keypair.fromSecretKey(seededSecret(seed, role))

/** Signs and executes a kind as `signer` (as a wallet would), then checkpoints, so the result is final. */
export const execute = (txKindBytes: string, signer: Signer) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const executed = yield* executeKind(txKindBytes, signer, yield* localLedgerAccess)
    yield* ledger.checkpoint
    return yield* ledger.getTransaction(executed.digest)
  })

/** Gas for a key. */
export const fund = (signer: Signer, amount = 10_000_000_000n) =>
  LocalLedger.use((ledger) => ledger.mint(signer.toSuiAddress(), SUI_COIN_TYPE, amount))

/** An owner with gas and a final SUI pool of `deposit`. */
export const ownerWithPool = (owner: Signer, deposit: bigint) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    yield* fund(owner)
    const kind = yield* chain.buildFundPool({ sender: owner.toSuiAddress(), coinType: SUI_COIN_TYPE, amount: deposit })
    const created = yield* execute(kind.txKindBytes, owner)
    if (created.status !== "success") return yield* Effect.die(`create_pool failed: ${created.error}`)
    const pool = yield* chain.findPool(owner.toSuiAddress(), SUI_COIN_TYPE)
    if (Option.isNone(pool)) return yield* Effect.die("the pool was not created")
    return pool.value
  })
