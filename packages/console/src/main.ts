/// <reference lib="dom" />
import "@mysten/dapp-kit-core/web"
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

/** The console: reads the gateway's network, then lays out the session, the owner's panels and the seller's. */
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
  const kit = makeKit(chainUrlOf(document), network)
  const wallet = new OwnerWallet(kit, api)
  const context = { api, wallet, notices }

  const connectButton = document.createElement("mysten-dapp-kit-connect-button")
  connectButton.instance = kit

  const accounts = spendAccountsPanel(context)
  const signers = signersPanel(context)
  const form = signerForm(context, () => Promise.all([signers.refresh(), accounts.refresh()]).then(() => undefined))
  const seller = sellerPanel(context)
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
    sessionPanel(context, connectButton, onSession),
    ownerArea)
  // The benchmark's time to interactive: the first frame after the wallet controls are on the page.
  requestAnimationFrame(() => performance.mark("console-interactive"))
}

const root = document.getElementById("app")
if (root !== null) void start(root)
