/// <reference lib="dom" />
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import {
  type IdentifierArray,
  registerWallet,
  type StandardConnectFeature,
  type StandardEventsFeature,
  type StandardEventsListeners,
  type SuiSignAndExecuteTransactionFeature,
  type SuiSignPersonalMessageFeature,
  type SuiSignTransactionFeature,
  type Wallet,
  type WalletAccount
} from "@mysten/wallet-standard"

/**
 * A wallet-standard wallet for browser tests, injected before the page loads:
 * a fixed Ed25519 key (from the seed the test sets on `window`), signing
 * without prompts, executing through the gateway's own `/sui`. It records
 * every request so the test can tell what the page asked it to sign.
 */
interface TestWalletWindow {
  testWalletSeed?: string
  testWalletLog?: Array<string>
}

const scope = window as Window & TestWalletWindow
const seed = fromBase64(scope.testWalletSeed ?? "")
const keypair = Ed25519Keypair.fromSecretKey(seed)
const address = keypair.toSuiAddress()
const log: Array<string> = []
scope.testWalletLog = log
const chains: IdentifierArray = ["sui:localnet"]
const features = ["sui:signPersonalMessage", "sui:signTransaction", "sui:signAndExecuteTransaction"] as const
const account: WalletAccount = Object.freeze({ address, publicKey: keypair.getPublicKey().toRawBytes(), chains, features })
const client = new SuiGrpcClient({ network: "localnet", baseUrl: `${window.location.origin}/sui` })
const listeners = new Set<StandardEventsListeners["change"]>()

const built = async (json: string) => {
  const transaction = Transaction.from(json)
  transaction.setSenderIfNotSet(address)
  return transaction.build({ client })
}

const wallet: Wallet = {
  version: "1.0.0",
  name: "Console Test Wallet",
  icon: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiLz4=",
  chains,
  accounts: [account],
  features: {
    "standard:connect": {
      version: "1.0.0",
      connect: async () => {
        log.push("connect")
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
      signPersonalMessage: async ({ message }) => {
        log.push("signPersonalMessage")
        return keypair.signPersonalMessage(message)
      }
    } satisfies SuiSignPersonalMessageFeature["sui:signPersonalMessage"],
    "sui:signTransaction": {
      version: "2.0.0",
      signTransaction: async ({ transaction }) => {
        log.push("signTransaction")
        return keypair.signTransaction(await built(await transaction.toJSON()))
      }
    } satisfies SuiSignTransactionFeature["sui:signTransaction"],
    "sui:signAndExecuteTransaction": {
      version: "2.0.0",
      signAndExecuteTransaction: async ({ transaction }) => {
        log.push("signAndExecuteTransaction")
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

registerWallet(wallet)
