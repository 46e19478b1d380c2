/// <reference lib="dom" />
import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import type { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import type {
  IdentifierArray,
  StandardConnectFeature,
  StandardEventsFeature,
  StandardEventsListeners,
  SuiSignAndExecuteTransactionFeature,
  SuiSignPersonalMessageFeature,
  SuiSignTransactionFeature,
  Wallet,
  WalletAccount
} from "@mysten/wallet-standard"
import type { Network } from "./Kit.ts"

/** The wallet-standard features of a wallet signing with `keypair` and executing through `client`, without prompts. */
const featuresOf = (keypair: Ed25519Keypair, client: SuiGrpcClient, account: WalletAccount, onConnect: (() => Promise<void>) | undefined) => {
  const listeners = new Set<StandardEventsListeners["change"]>()
  const built = async (json: string) => {
    const transaction = Transaction.from(json)
    transaction.setSenderIfNotSet(account.address)
    return transaction.build({ client })
  }
  return {
    "standard:connect": {
      version: "1.0.0",
      connect: async () => {
        if (onConnect !== undefined) await onConnect()
        for (const listener of listeners) listener({ accounts: [account] })
        return { accounts: [account] }
      }
    } satisfies StandardConnectFeature["standard:connect"],
    "standard:events": {
      version: "1.0.0",
      on: (_event, listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      }
    } satisfies StandardEventsFeature["standard:events"],
    "sui:signPersonalMessage": {
      version: "1.1.0",
      signPersonalMessage: ({ message }) => keypair.signPersonalMessage(message)
    } satisfies SuiSignPersonalMessageFeature["sui:signPersonalMessage"],
    "sui:signTransaction": {
      version: "2.0.0",
      signTransaction: async ({ transaction }) => keypair.signTransaction(await built(await transaction.toJSON()))
    } satisfies SuiSignTransactionFeature["sui:signTransaction"],
    "sui:signAndExecuteTransaction": {
      version: "2.0.0",
      signAndExecuteTransaction: async ({ transaction }) => {
        const bytes = await built(await transaction.toJSON())
        const { signature } = await keypair.signTransaction(bytes)
        const result = await client.core.executeTransaction({ transaction: bytes, signatures: [signature], include: { effects: true } })
        const executed = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
        const effects = executed.effects.bcs
        if (effects === null) throw new Error("the node returned no effects")
        return { digest: executed.digest, bytes: toBase64(bytes), signature, effects: toBase64(effects) }
      }
    } satisfies SuiSignAndExecuteTransactionFeature["sui:signAndExecuteTransaction"]
  }
}

/**
 * A wallet-standard wallet with one account whose key `keypair` is held in
 * the page: it signs whatever it is asked to without a prompt, so in the
 * console only the development wallet (local mode) registers one.
 * `onConnect` runs before a connect answers.
 */
export const keypairWallet = (options: {
  readonly keypair: Ed25519Keypair
  readonly client: SuiGrpcClient
  readonly network: Network
  readonly name: string
  readonly icon: Wallet["icon"]
  readonly label?: string
  readonly onConnect?: () => Promise<void>
}) => {
  const { keypair, network } = options
  const chains: IdentifierArray = [`sui:${network}`]
  const account: WalletAccount = Object.freeze({
    address: keypair.toSuiAddress(),
    publicKey: keypair.getPublicKey().toRawBytes(),
    chains,
    features: ["sui:signPersonalMessage", "sui:signTransaction", "sui:signAndExecuteTransaction"] as const,
    ...(options.label === undefined ? {} : { label: options.label })
  })
  return {
    version: "1.0.0",
    name: options.name,
    icon: options.icon,
    chains,
    accounts: [account],
    features: featuresOf(keypair, options.client, account, options.onConnect)
  } satisfies Wallet
}
