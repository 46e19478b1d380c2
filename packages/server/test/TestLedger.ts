import type { Signer } from "@mysten/sui/cryptography"
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { localLedgerAccess } from "@gateway/chain/local/LocalLedgerAccess"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { signAndExecuteKind } from "@gateway/client/OwnerWallet"
import { CoinType } from "@gateway/domain/CoinType"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"

/** Ten SUI in MIST: enough gas for any test. */
const GAS = 10_000_000_000n

/**
 * What a test does on the chain as the owner or agent would in a wallet:
 * fund, sign and execute kinds, and make checkpoints. It drives the server's
 * own LocalLedger instance.
 */
export class TestLedger extends Context.Service<TestLedger, {
  /** A fresh coin type nobody has used: LocalLedger's faucet mints any type in local mode. */
  newCoinType(name: string): Effect.Effect<CoinType>
  /** Gives the signer gas and a funded spend account for `coinType`, final on chain. */
  fundPool(signer: Signer, coinType: string, amount: bigint): Effect.Effect<void, unknown>
  execute(txKindBytes: string, signer: Signer): Effect.Effect<string, unknown>
  readonly checkpoint: Effect.Effect<void, unknown>
}>()("@gateway/server/test/TestLedger") {
  static readonly layer = Layer.effect(
    TestLedger,
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const access = yield* localLedgerAccess
      const chain = yield* Chain
      const execute = (txKindBytes: string, signer: Signer) => signAndExecuteKind(txKindBytes, signer, access)
      const checkpoint = Effect.asVoid(ledger.checkpoint)
      return TestLedger.of({
        newCoinType: (name) => Effect.sync(() => CoinType.make(`0x${randomBytes(32).toString("hex")}::test_coin::${name}`)),
        fundPool: (signer, coinType, amount) =>
          Effect.gen(function*() {
            const owner = signer.toSuiAddress()
            yield* ledger.mint(owner, SUI_COIN_TYPE, GAS)
            if (normalizeCoinType(coinType) !== normalizeCoinType(SUI_COIN_TYPE)) yield* ledger.mint(owner, coinType, amount)
            const kind = yield* chain.buildFundPool({ sender: owner, coinType, amount })
            const digest = yield* execute(kind.txKindBytes, signer)
            const tx = yield* Effect.flatMap(checkpoint, () => ledger.getTransaction(digest))
            if (tx.status !== "success") return yield* Effect.die(new Error(`funding failed: ${tx.error}`))
          }),
        execute,
        checkpoint
      })
    })
  ).pipe(Layer.provideMerge(Chain.layerLocal))
}
