/// <reference lib="dom" />
import "@mysten/dapp-kit-core/web"
import { catalogView } from "./CatalogView.ts"
import { DEV_WALLET_LABEL, DEV_WALLET_NAME, isLocalMode, registerDevWallet } from "./DevWallet.ts"
import { GatewayApi } from "./GatewayApi.ts"
import { fill, h } from "./Dom.ts"
import { chainUrlOf, makeKit, type Network } from "./Kit.ts"
import { Notices } from "./Notices.ts"
import { OwnerWallet } from "./OwnerWallet.ts"
import { sellerPanel } from "./SellerPanel.ts"
import { sessionPanel } from "./SessionPanel.ts"
import { signerForm } from "./SignerForm.ts"
import { signersPanel } from "./SignersPanel.ts"
import { spendAccountsPanel } from "./SpendAccountsPanel.ts"
import { tabs } from "./Tabs.ts"

const NETWORKS: ReadonlyArray<Network> = ["localnet", "devnet", "testnet", "mainnet"]

/**
 * In local mode only, the development wallet, registered before anything
 * asks for wallets, and the panel that says what it is: a newcomer without a
 * wallet extension can still walk the owner's and seller's stories.
 */
const devWalletPanel = (network: Network, notices: Notices) => {
  if (!isLocalMode(document)) return null
  const dev = registerDevWallet(network)
  const fund = h("button", { type: "button", class: "secondary", id: "dev-wallet-fund" }, "Get 10 SUI from the local faucet")
  fund.addEventListener("click", () => notices.run("Asking the local faucet", dev.fund, fund))
  const element = h("section", { id: "dev-wallet", class: "dev-wallet", "aria-labelledby": "dev-wallet-title" },
    h("h2", { id: "dev-wallet-title" }, DEV_WALLET_LABEL),
    h("p", {}, `No wallet extension? Choose “${DEV_WALLET_NAME}” in Connect Wallet. Its key was made in this browser and stays in its storage; the first connect funds it from the local faucet. Never use it for anything of value: it exists only while the gateway runs its own local ledger.`),
    h("p", { class: "mono" }, `Address ${dev.address}`),
    h("div", { class: "row" }, fund))
  return { element, address: dev.address }
}

/** The console: reads the gateway's network, then lays out the public catalog, the session, the owner's panels and the seller's. */
const start = async (root: HTMLElement) => {
  const api = new GatewayApi()
  const notices = new Notices()
  fill(root, notices.element)
  const health = await api.health().catch((cause: unknown) => {
    notices.error(cause)
    return null
  })
  if (health === null) return
  const network = NETWORKS.find((n) => `sui:${n}` === health.network || n === health.network) ?? "localnet"
  const devPanel = devWalletPanel(network, notices)
  const kit = makeKit(chainUrlOf(document), network)
  // Someone connected with a wallet of their own does not need the development wallet's panel in the way.
  kit.stores.$connection.subscribe(({ account }) => {
    if (devPanel !== null) devPanel.element.hidden = account !== null && account.address !== devPanel.address
  })
  const wallet = new OwnerWallet(kit, api)
  const context = { api, wallet, notices }

  const connectButton = document.createElement("mysten-dapp-kit-connect-button")
  connectButton.instance = kit

  const accounts = spendAccountsPanel(context)
  const signers = signersPanel(context)
  const form = signerForm(context, () => Promise.all([signers.refresh(), accounts.refresh()]).then(() => undefined))
  const seller = sellerPanel(context)
  const catalog = catalogView(api, notices)
  const ownerPanel = h("div", {}, accounts.element, form.element, signers.element)
  const sellerPanelElement = h("div", {}, seller.element)
  const ownerArea = h("div", { id: "owner-area", hidden: true },
    tabs("Console sections", [
      { id: "owner-panel", title: "Owner: spend accounts and signers", panel: ownerPanel },
      { id: "seller-panel", title: "Seller: paid services", panel: sellerPanelElement }
    ]),
    ownerPanel,
    sellerPanelElement)

  const onSession = (signedIn: boolean) => {
    ownerArea.hidden = !signedIn
    if (signedIn) {
      void notices.run("Loading your accounts", async () => {
        await Promise.all([accounts.refresh(), form.loadChoices(), signers.refresh(), seller.refresh()])
      })
    }
  }

  fill(root,
    h("header", { class: "top" },
      h("h1", {}, "Gateway console"),
      h("p", { class: "hint" }, `Network ${health.network}. Every change is signed in your own wallet; the gateway never holds your key.`)),
    notices.element,
    catalog.element,
    sessionPanel(context, connectButton, onSession),
    devPanel?.element,
    ownerArea)
  void catalog.start()
  // The benchmark's time to interactive: the first frame after the wallet controls are on the page.
  requestAnimationFrame(() => performance.mark("console-interactive"))
}

const root = document.getElementById("app")
if (root !== null) void start(root)
