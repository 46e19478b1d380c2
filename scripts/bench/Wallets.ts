import type { Signer } from "@mysten/sui/cryptography"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Effect } from "effect"
import { type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import { untilCheckpointed } from "@gateway/client/Finality"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { SUI } from "./ServiceTerms.ts"

/**
 * The owners' and agents' side, in the bench process as wallets are outside
 * the gateway: the gateway's API, and the ledger reached as any wallet
 * reaches a node (a `SuiGrpcClient` over gRPC-web, its faucet over HTTP).
 */
export interface Wallets {
  readonly api: GatewayClient
  readonly sui: SuiGrpcClient
  readonly faucet: (address: string) => Effect.Effect<void>
}

/** Wallets on the gateway at `gatewayUrl` and the ledger node at `ledgerOrigin`. */
export const makeWallets = (gatewayUrl: string, ledgerOrigin: string) =>
  Effect.map(makeApiClient(gatewayUrl), (api): Wallets => ({
    api,
    sui: new SuiGrpcClient({ network: "localnet", baseUrl: `${ledgerOrigin}/sui` }),
    faucet: (address) => Effect.asVoid(Effect.promise(() => requestSuiFromFaucetV2({ host: ledgerOrigin, recipient: address })))
  }))

/** Until the ledger has put `digest` in a checkpoint, read as the agent SDK reads it: what a wallet does before it asks the gateway to finalize. */
export const checkpointed = (wallets: Wallets, digest: string) => Effect.promise(() => untilCheckpointed(wallets.sui, digest, 30_000))

/** An owner with SUI from the faucet, signed in, with 1 SUI in a spend account it funded with its own gas: its signed-in requests. */
export const fundedOwner = (wallets: Wallets, key: Signer) =>
  Effect.gen(function*() {
    yield* wallets.faucet(key.toSuiAddress())
    const as = withOwner((yield* signIn(wallets.api, key)).authorization)
    const prepared = yield* wallets.api.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: PositiveAtomicAmount.make("1000000000") } }).pipe(as)
    yield* checkpointed(wallets, (yield* executeKind(prepared.txKindBytes, key, wallets.sui)).digest)
    return { key, as }
  })
