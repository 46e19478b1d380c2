/// <reference lib="dom" />
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
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
import { ApiFailure } from "./ApiFailure.ts"
import type { Network } from "./Kit.ts"

/** What the wallet is called in the connect dialog: it names what it is. */
export const DEV_WALLET_NAME = "Development wallet (local mode)"

/** The page's own words for it, wherever it is offered. */
export const DEV_WALLET_LABEL = "Development wallet — local mode only, keys kept in this browser"

const STORAGE_KEY = "console.devWallet.secretKey"

/** A square "D" on blue, inline: the page's CSP allows images from data: URLs only. */
const ICON =
  "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iNiIgZmlsbD0iIzFkNGVkOCIvPjx0ZXh0IHg9IjE2IiB5PSIyMiIgZm9udC1zaXplPSIxOCIgZm9udC1mYW1pbHk9InNhbnMtc2VyaWYiIGZpbGw9IiNmZmYiIHRleHQtYW5jaG9yPSJtaWRkbGUiPkQ8L3RleHQ+PC9zdmc+" as const

/**
 * Where the mode is stated: the gateway writes "local" into the page only
 * when it runs its own LocalLedger (no SUI_GRPC_URL), and the template says
 * "live", so a page that was not rewritten never offers this wallet.
 */
export const isLocalMode = (document: Document) =>
  document.querySelector<HTMLMetaElement>('meta[name="gateway-mode"]')?.content === "local" &&
  (document.querySelector<HTMLMetaElement>('meta[name="sui-grpc-url"]')?.content ?? "") === ""

/** This browser's key: made once, kept in localStorage, never sent anywhere (only signatures leave the page). */
const storedKeypair = () => {
  const stored = localStorage.getItem(STORAGE_KEY)
  if (stored !== null) return Ed25519Keypair.fromSecretKey(stored)
  const keypair = new Ed25519Keypair()
  localStorage.setItem(STORAGE_KEY, keypair.getSecretKey())
  return keypair
}

/** The local faucet's 10 SUI (POST /v2/gas, served only in local mode), waited for until the node serves it. */
const fromFaucet = async (client: SuiGrpcClient, recipient: string) => {
  const response = await fetch("/v2/gas", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ FixedAmountRequest: { recipient } })
  })
  const body: unknown = await response.json().catch(() => null)
  const sent = typeof body === "object" && body !== null && "coins_sent" in body && Array.isArray(body.coins_sent) ? body.coins_sent : []
  const first: unknown = sent[0]
  const digest = typeof first === "object" && first !== null && "transferTxDigest" in first && typeof first.transferTxDigest === "string" ? first.transferTxDigest : null
  if (!response.ok || digest === null) throw new ApiFailure("UNAVAILABLE", `The local faucet did not pay (HTTP ${response.status})`)
  await client.core.waitForTransaction({ digest })
}

/** The development wallet: one account, its key in this browser, funded from the local faucet when it holds no SUI. */
export interface DevWallet {
  readonly address: string
  /** 10 SUI more from the local faucet. */
  readonly fund: () => Promise<void>
}

/** The wallet-standard features of a wallet signing with `keypair` and executing through this origin's `/sui`. */
const featuresOf = (keypair: Ed25519Keypair, client: SuiGrpcClient, account: WalletAccount, onConnect: () => Promise<void>) => {
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
        await onConnect()
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
 * Registers the development wallet through the wallet standard, so dApp Kit's
 * connect dialog offers it like any extension. Only in local mode: the caller
 * checks `isLocalMode` first, and the faucet it relies on exists nowhere else.
 */
export const registerDevWallet = (network: Network): DevWallet => {
  // Defence in depth: a page that does not say local mode never gets a wallet whose key sits in localStorage.
  if (!isLocalMode(document)) throw new ApiFailure("WALLET", "The development wallet exists only in local mode")
  const keypair = storedKeypair()
  const address = keypair.toSuiAddress()
  const client = new SuiGrpcClient({ network, baseUrl: `${location.origin}/sui` })
  const chains: IdentifierArray = [`sui:${network}`]
  const account: WalletAccount = Object.freeze({
    address,
    publicKey: keypair.getPublicKey().toRawBytes(),
    chains,
    features: ["sui:signPersonalMessage", "sui:signTransaction", "sui:signAndExecuteTransaction"] as const,
    label: DEV_WALLET_LABEL
  })
  const fund = () => fromFaucet(client, address)
  // A wallet without SUI could pay no gas of its own: the first connect asks the faucet.
  const fundIfEmpty = async () => {
    const { balance } = await client.core.getBalance({ owner: address })
    if (BigInt(balance.balance) === 0n) await fund()
  }
  const wallet: Wallet = {
    version: "1.0.0",
    name: DEV_WALLET_NAME,
    icon: ICON,
    chains,
    accounts: [account],
    features: featuresOf(keypair, client, account, fundIfEmpty)
  }
  registerWallet(wallet)
  return { address, fund }
}
