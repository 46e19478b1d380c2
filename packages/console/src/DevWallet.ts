/// <reference lib="dom" />
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { registerWallet } from "@mysten/wallet-standard"
import { ApiFailure } from "./ApiFailure.ts"
import { keypairWallet } from "./KeypairWallet.ts"
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
  const fund = () => fromFaucet(client, address)
  // A wallet without SUI could pay no gas of its own: the first connect asks the faucet.
  const fundIfEmpty = async () => {
    const { balance } = await client.core.getBalance({ owner: address })
    if (BigInt(balance.balance) === 0n) await fund()
  }
  registerWallet(keypairWallet({ keypair, client, network, name: DEV_WALLET_NAME, icon: ICON, label: DEV_WALLET_LABEL, onConnect: fundIfEmpty }))
  return { address, fund }
}
