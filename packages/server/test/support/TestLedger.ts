import type { Signer } from "@mysten/sui/cryptography"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import type { SharedRef } from "@gateway/chain/transactions/Kinds"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { executeKind, type GasOptions, signAndExecuteKind, waitFor } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import { normalizeCoinType, SUI_COIN_TYPE, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { BaseUrl } from "./TestServer.ts"

/** A budget that any one kind of the module fits in, for transactions sent without the SDK's dry run. */
const AS_IS_BUDGET = 50_000_000n

/**
 * What a test does on the chain as the owner or agent would in a wallet: a
 * plain `SuiGrpcClient` on the gateway's `/sui` over HTTP for gas, reads and
 * execution, the faucet for SUI, and the server's own LocalLedger only for
 * what no wallet can do (minting test coin types, making checkpoints).
 */
export class TestLedger extends Context.Service<TestLedger, {
  readonly client: SuiGrpcClient
  readonly pkg: SpendAccountPackage
  /** A fresh coin type nobody has used; `fundPool` mints it in process, since no faucet gives it. */
  newCoinType(name: string): Effect.Effect<CoinType>
  /** Ten SUI from the gateway's faucet, as one coin. */
  gas(address: string): Effect.Effect<void, unknown>
  /** Gives the signer gas and a funded spend account for `coinType` (prepared by the API), final on chain. */
  fundPool(signer: Signer, coinType: string, amount: bigint): Effect.Effect<void, unknown>
  /** Signs and executes a kind as a wallet does (gas priced by a dry run, so a kind that would abort is refused); its digest. */
  execute(txKindBytes: string, signer: Signer): Effect.Effect<string, unknown>
  /** Signs and executes a kind without the dry run, so one that aborts lands on chain as a failed transaction; its digest. */
  executeAsIs(txKindBytes: string, signer: Signer, gas?: GasOptions): Effect.Effect<string, unknown>
  /** A shared object as a transaction names it offline. */
  sharedRef(objectId: string): Effect.Effect<SharedRef, unknown>
  /** An object's Move contents (BCS), to parse with `Structs`. */
  contents(objectId: string): Effect.Effect<Uint8Array, unknown>
  readonly checkpoint: Effect.Effect<void, unknown>
}>()("@gateway/server/test/TestLedger") {
  static readonly layer = Layer.effect(
    TestLedger,
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const baseUrl = yield* BaseUrl
      const api = yield* makeApiClient(baseUrl)
      const client = new SuiGrpcClient({ network: "localnet", baseUrl: `${baseUrl}/sui` })
      const checkpoint = Effect.asVoid(ledger.checkpoint)
      const gas = (address: string) =>
        Effect.tryPromise(() => requestSuiFromFaucetV2({ host: baseUrl, recipient: address })).pipe(
          Effect.flatMap((answer) => answer.status === "Success" ? Effect.void : Effect.fail(new Error(`the faucet refused: ${JSON.stringify(answer.status)}`)))
        )
      const execute = (txKindBytes: string, signer: Signer) => signAndExecuteKind(txKindBytes, signer, client)
      const executeAsIs = (txKindBytes: string, signer: Signer, options: GasOptions = {}) =>
        Effect.tap(
          Effect.map(executeKind(txKindBytes, signer, client, { budget: AS_IS_BUDGET, ...options }), (executed) => executed.digest),
          (digest) => waitFor(client, digest)
        )
      const contents = (objectId: string) =>
        Effect.map(Effect.tryPromise(() => client.core.getObject({ objectId, include: { content: true } })), ({ object }) => object.content)
      const sharedRef = (objectId: string) =>
        Effect.tryPromise(() => client.core.getObject({ objectId })).pipe(
          Effect.flatMap(({ object }) =>
            object.owner.$kind === "Shared"
              ? Effect.succeed({ objectId, initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) })
              : Effect.fail(new Error(`${objectId} is not shared`)))
        )
      return TestLedger.of({
        client,
        pkg: ledger.config.pkg,
        newCoinType: (name) => Effect.sync(() => CoinType.make(`0x${randomBytes(32).toString("hex")}::test_coin::${name}`)),
        gas,
        fundPool: (signer, coinType, amount) =>
          Effect.gen(function*() {
            const owner = signer.toSuiAddress()
            yield* gas(owner)
            if (normalizeCoinType(coinType) !== normalizeCoinType(SUI_COIN_TYPE)) yield* ledger.mint(owner, coinType, amount)
            const asOwner = withOwner((yield* signIn(api, signer)).authorization)
            const kind = yield* api.spendAccounts.prepare({
              payload: { asset: CoinType.make(coinType), depositAtomic: PositiveAtomicAmount.make(amount.toString()) }
            }).pipe(asOwner)
            const executed = yield* executeKind(kind.txKindBytes, signer, client)
            if (executed.status !== "success") return yield* Effect.die(new Error(`funding failed: ${executed.error}`))
            yield* waitFor(client, executed.digest)
            yield* checkpoint
          }),
        execute,
        executeAsIs,
        sharedRef,
        contents,
        checkpoint
      })
    })
  ).pipe(Layer.provide(FetchLayer))
}
