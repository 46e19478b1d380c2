/// <reference lib="dom" />
import type { DelegatedSignerView } from "@gateway/domain/DelegatedSigner"
import { coinDecimals, readGrant } from "./ChainReads.ts"
import { amountText, coinLabel } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import type { OwnerWallet } from "./OwnerWallet.ts"
import { fill, h } from "./Dom.ts"
import { signChanges } from "./SignChanges.ts"
import { paymentsList } from "./PaymentsList.ts"
import { sessionsList } from "./SessionsList.ts"

type SignerView = (typeof DelegatedSignerView)["Encoded"]

type GrantView = SignerView["grants"][number]

/** A window's period in words: its name, or its length for a period the API was given in milliseconds. */
const perPeriod = (window: NonNullable<GrantView["window"]>) =>
  window.period === "calendar_month" ? "per calendar month (UTC)" : window.period !== null ? `per ${window.period}` : `per ${window.periodMs ?? 0} ms`

/** The window's limit, what the chain says was spent in the current one, and when it resets; dashes without a window. */
const windowCells = (grant: GrantView, decimals: number | null) => {
  const { window } = grant
  if (window === null) return [h("td", { class: "window" }, "none"), h("td", { class: "window-spent" }, "—"), h("td", { class: "window-resets" }, "—")]
  return [
    h("td", { class: "window" }, `${amountText(window.limitAtomic, decimals, grant.coinType)} ${perPeriod(window)}`),
    h("td", { class: "window-spent" }, grant.spentThisWindowAtomic === null ? "—" : amountText(grant.spentThisWindowAtomic, decimals, grant.coinType)),
    h("td", { class: "window-resets" }, grant.windowResetsAt ?? "—")
  ]
}

/** The grant's expiry in milliseconds since the epoch, "0" for none. */
const expiryText = (expiryMs: string) => (expiryMs === "0" ? "never" : new Date(Number(expiryMs)).toISOString())

/** The grants still pending with the create kind the API keeps for them (`createTxKindBytes`). */
const pendingKinds = (signer: SignerView) =>
  signer.grants.flatMap((grant) =>
    grant.status === "pending" && grant.createTxKindBytes !== undefined ? [{ grantId: grant.id, asset: grant.coinType, txKindBytes: grant.createTxKindBytes }] : [])

/**
 * Signs and finalizes those grants: a page reloaded (or a wallet closed)
 * before the owner signed can still complete the create from the signer's card.
 */
const signPendingGrants = (context: ConsoleContext, signer: SignerView) =>
  signChanges(context, { kind: "create", signerId: signer.id, grants: pendingKinds(signer) }, (grantId, status, signerStatus) =>
    context.notices.progress(`Grant ${grantId} is ${status}; the signer is ${signerStatus}.`))

/** One grant's row: its caps, and its budget spent and remaining as the chain holds them (dashes when it cannot be read). */
const grantRow = async (wallet: OwnerWallet, grant: GrantView) => {
  const decimals = await coinDecimals(wallet.client, grant.coinType)
  const onChain = grant.grantObjectId === null ? null : await readGrant(wallet.client, grant.grantObjectId).catch(() => null)
  const spent = onChain === null ? "—" : amountText(onChain.spent.toString(), decimals, grant.coinType)
  const remaining = onChain === null ? "—" : amountText((onChain.sessionCap - onChain.spent).toString(), decimals, grant.coinType)
  return h("tr", { "data-grant": grant.id, "data-coin": grant.coinType },
    h("td", {}, coinLabel(grant.coinType)),
    h("td", {}, h("span", { class: "status", "data-status": grant.status }, grant.status)),
    h("td", {}, expiryText(grant.expiry)),
    h("td", {}, amountText(grant.caps.sessionCap, decimals, grant.coinType)),
    h("td", {}, amountText(grant.caps.maxPerPayment, decimals, grant.coinType)),
    h("td", { class: "spent" }, spent),
    h("td", { class: "remaining" }, remaining),
    ...windowCells(grant, decimals))
}

const GRANT_COLUMNS = ["Coin", "Status", "Expires", "Budget", "Per payment", "Spent", "Remaining", "Window", "Spent this window", "Window resets"]

const grantsTable = (rows: ReadonlyArray<HTMLTableRowElement>) =>
  h("div", { class: "scroll" }, h("table", {},
    h("caption", {}, "Grants, with spent and remaining budget and the current window's spending read from the chain"),
    h("thead", {}, h("tr", {}, ...GRANT_COLUMNS.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, ...rows)))

/** One of the card's controls: hidden unless `show`, handed itself on click so its notice can disable it. */
const actionButton = (label: string, className: string, onClick: (b: HTMLButtonElement) => void, show = true) => {
  const b = h("button", { type: "button", class: className, hidden: !show }, label)
  b.addEventListener("click", () => onClick(b))
  return b
}

/**
 * One delegated signer: its aggregate and per-grant status, each grant's
 * budget spent and remaining as the chain holds them, its window (what the
 * gateway read of the chain: spent this window, when it resets), its payments and payment sessions, and the
 * owner's controls (pause, resume, revoke, the connection manifest).
 */
export const signerCard = (context: ConsoleContext, initial: SignerView) => {
  const { api, wallet, notices } = context
  let signer = initial
  const element = h("article", { class: "signer", "data-signer": signer.id, "aria-labelledby": `title-${signer.id}` })
  const payments = paymentsList(context, { kind: "signer", id: signer.id })
  const sessions = sessionsList(context, { kind: "signer", id: signer.id })
  const manifestText = h("pre", { class: "manifest", tabindex: 0 })

  const change = (kind: "pause" | "resume" | "revoke", button: HTMLButtonElement) =>
    notices.run(`${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)} ${signer.name}`, async () => {
      const prepared = await api.prepareChange(kind, signer.id)
      await signChanges(context, { kind, signerId: signer.id, grants: prepared.grants }, (grantId, status, signerStatus) =>
        notices.progress(`Grant ${grantId} is ${status}; the signer is ${signerStatus}.`))
      await refresh()
    }, button)

  const signPending = (button: HTMLButtonElement) =>
    notices.run(`Sign ${signer.name === "" ? signer.id : signer.name}`, async () => {
      await signPendingGrants(context, signer)
      await refresh()
    }, button)

  const manifest = async () => JSON.stringify(await api.manifest(signer.id), null, 2)

  const copyManifest = (button: HTMLButtonElement) =>
    notices.run("Copying the connection manifest", async () => {
      const text = await manifest()
      manifestText.textContent = text
      await navigator.clipboard.writeText(text).catch(() => notices.progress("Copy it from the text shown below."))
    }, button)

  const downloadManifest = (button: HTMLButtonElement) =>
    notices.run("Downloading the connection manifest", async () => {
      const text = await manifest()
      manifestText.textContent = text
      const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: `${signer.id}.manifest.json` })
      link.click()
      URL.revokeObjectURL(link.href)
    }, button)

  const render = async () => {
    const live = signer.status !== "revoked" && signer.status !== "failed" && signer.status !== "expired"
    const rows = await Promise.all(signer.grants.map((grant) => grantRow(wallet, grant)))
    fill(element,
      h("header", {},
        h("h3", { id: `title-${signer.id}` }, signer.name === "" ? signer.id : signer.name),
        h("span", { class: "status", "data-status": signer.status, "aria-label": `Status: ${signer.status}` }, signer.status)),
      h("p", { class: "mono" }, `${signer.id} · agent ${signer.agentAddress}`),
      grantsTable(rows),
      h("div", { class: "row actions" },
        actionButton("Sign", "sign-pending", (b) => void signPending(b), pendingKinds(signer).length > 0),
        actionButton("Pause", "secondary pause", (b) => void change("pause", b), live && signer.status !== "paused" && signer.status !== "pausing"),
        actionButton("Resume", "secondary resume", (b) => void change("resume", b), signer.status === "paused"),
        actionButton("Revoke", "danger revoke", (b) => void change("revoke", b), live),
        actionButton("Copy manifest", "secondary copy-manifest", (b) => void copyManifest(b), signer.status !== "awaiting_owner_signature"),
        actionButton("Download manifest", "secondary download-manifest", (b) => void downloadManifest(b), signer.status !== "awaiting_owner_signature"),
        actionButton("Refresh", "secondary refresh", (b) => void notices.run("Refreshing", refresh, b))),
      manifestText,
      payments.element,
      sessions.element)
    await Promise.all([payments.refresh(), sessions.refresh()])
  }

  const refresh = async () => {
    signer = (await api.signer(signer.id)).delegatedSigner
    await render()
  }

  return { element, render, refresh }
}
