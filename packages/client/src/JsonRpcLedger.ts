import { SuiJsonRpcClient } from "@mysten/sui/jsonRpc"
import { Effect } from "effect"
import type { LedgerAccess } from "./OwnerWallet.ts"

/** A ledger reached over Sui's JSON-RPC: the gateway's `/sui` in local mode, or a Sui full node. */
export class LedgerUnreachable extends Error {
  readonly _tag = "LedgerUnreachable"
}

const call = <A>(f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (error) => new LedgerUnreachable(error instanceof Error ? error.message : String(error)) })

/** Wallet access (gas coins, submit) through `SuiJsonRpcClient`. */
export const jsonRpcLedgerAccess = (url: string, network: "localnet" | "devnet" | "testnet" | "mainnet" = "localnet") =>
  Effect.gen(function*() {
    const client = new SuiJsonRpcClient({ url, network })
    const referenceGasPrice = yield* call(() => client.getReferenceGasPrice())
    const access: LedgerAccess<LedgerUnreachable> = {
      referenceGasPrice: BigInt(referenceGasPrice),
      gasCoins: (owner) =>
        call(() => client.getCoins({ owner })).pipe(
          Effect.map((page) => page.data.map((c) => ({ objectId: c.coinObjectId, version: c.version, digest: c.digest, balance: BigInt(c.balance) })))
        ),
      submit: (txBytes, signatures) =>
        call(() => client.executeTransactionBlock({ transactionBlock: txBytes, signature: [...signatures], options: { showEffects: true } })).pipe(
          Effect.map((result) => ({
            digest: result.digest,
            status: result.effects?.status.status === "success" ? "success" as const : "failure" as const,
            error: result.effects?.status.error ?? null
          }))
        )
    }
    return access
  })
