import { blake2b } from "@noble/hashes/blake2.js"
import type { SuiClientTypes } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import type { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Context, Effect, Layer } from "effect"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { LedgerJournal } from "../src/LedgerJournal.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import * as SuiChain from "@gateway/chain/sui/SuiChain"
import { clientFor, grpcServerLayer, Origin, PKG } from "./grpc/GrpcServer.ts"

export { Origin, PKG }

/** A plain `SuiGrpcClient` over HTTP to the test's ledger: how every wallet in these tests reaches it. */
export class Client extends Context.Service<Client, SuiGrpcClient>()("@gateway/local-ledger/test/Client") {}

/**
 * A ledger on `journal` behind its gRPC-web front on an ephemeral port, a
 * client over HTTP to it, and the `Chain` under test: `SuiChain` over that client.
 */
export const ledgerLayer = (journal: Layer.Layer<LedgerJournal> = LedgerJournal.layerMemory) => {
  const client = Layer.effect(Client, Origin.useSync(clientFor))
  const chain = Layer.unwrap(Client.useSync((c) => SuiChain.layer({ client: c, network: "localnet", pkg: PKG, assets: [SUI_COIN_TYPE] })))
  return chain.pipe(Layer.provideMerge(client), Layer.provideMerge(grpcServerLayer(journal)))
}

export const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** 32 secret-key bytes that depend only on (seed, role): the same run signs the same bytes. */
export const seededSecret = (seed: number, role: number) => blake2b(new TextEncoder().encode(`ledger-test:${seed}:${role}`), { dkLen: 32 })

export const seededEd25519 = (seed: number, role: number) => Ed25519Keypair.fromSecretKey(seededSecret(seed, role))

const readBack = { effects: true, events: true, bcs: true, balanceChanges: true, objectTypes: true } as const
export type ReadBack = SuiClientTypes.Transaction<typeof readBack>

/** The transaction of a result, whether it succeeded or failed on chain. */
export const transactionOf = <T extends SuiClientTypes.TransactionInclude>(result: SuiClientTypes.TransactionResult<T>) =>
  result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction

/**
 * Completes a kind with `signer` as sender, and signs and executes it through
 * the client. Gas is chosen by the node's dry run; with `gasBudget` the wallet
 * sets it all itself (budget, reference price, its SUI coins), so nothing is
 * simulated and a kind that aborts lands on chain as a failed transaction.
 */
export const submit = (txKindBytes: string, signer: Signer, gasBudget?: bigint) =>
  Effect.gen(function*() {
    const client = yield* Client
    const transaction = Transaction.fromKind(fromBase64(txKindBytes))
    transaction.setSender(signer.toSuiAddress())
    if (gasBudget !== undefined) {
      const { referenceGasPrice } = yield* promise(() => client.core.getReferenceGasPrice())
      const { objects } = yield* promise(() => client.core.listCoins({ owner: signer.toSuiAddress() }))
      transaction.setGasBudget(gasBudget)
      transaction.setGasPrice(BigInt(referenceGasPrice))
      transaction.setGasPayment(objects.map((coin) => ({ objectId: coin.objectId, version: coin.version, digest: coin.digest })))
    }
    return transactionOf(yield* promise(() => client.core.signAndExecuteTransaction({ transaction, signer, include: { effects: true } })))
  })

/** Reads a transaction back as a node answers it. */
export const readTransaction = (digest: string) =>
  Effect.gen(function*() {
    const client = yield* Client
    return transactionOf(yield* promise(() => client.core.getTransaction({ digest, include: readBack })))
  })

/** Signs and executes a kind as `signer` (as a wallet would), then checkpoints, so the result is final. */
export const execute = (txKindBytes: string, signer: Signer, gasBudget?: bigint) =>
  Effect.gen(function*() {
    const executed = yield* submit(txKindBytes, signer, gasBudget)
    yield* (yield* LocalLedger).checkpoint
    return yield* readTransaction(executed.digest)
  })

/** Gas for a key, from the faucet; answers the coin's id. */
export const fund = (signer: Signer) =>
  Effect.gen(function*() {
    const host = yield* Origin
    const funded = yield* promise(() => requestSuiFromFaucetV2({ host, recipient: signer.toSuiAddress() }))
    const [coin] = funded.coins_sent ?? []
    if (coin === undefined) return yield* Effect.die("the faucet sent nothing")
    return coin.id
  })
