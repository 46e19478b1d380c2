/// <reference lib="dom" />
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { amountText, coinLabel } from "./CoinAmount.ts"
import { fill, h } from "./Dom.ts"
import type { GatewayApi } from "./GatewayApi.ts"
import type { Notices } from "./Notices.ts"

type Entry = (typeof CatalogEntry)["Encoded"]

/** `#/services/<id>`: a service page anyone can link to. */
const SERVICE_HASH = /^#\/services\/([A-Za-z0-9_-]+)$/

const settlementText = (entry: Entry) =>
  entry.settlement === "before_forwarding" ? "before the call is forwarded (the service has side effects)" : "after the service answers"

/** Where a newcomer learns to pay: the agent's instructions, this service's terms as Markdown, and the API reference. */
const howToPay = (entry: Entry) =>
  h("section", { class: "how-to-pay", "aria-labelledby": "how-to-pay-title" },
    h("h3", { id: "how-to-pay-title" }, "How to pay for a call"),
    h("ol", {},
      h("li", {}, "An owner connects a wallet below, funds a spend account and creates a delegated signer for the agent's address, with a budget and a per-payment cap."),
      h("li", {}, "The agent keeps its own key and the signer's connection manifest, and calls ", h("code", {}, `${entry.method} ${entry.resourceUrl}`), "."),
      h("li", {}, "The gateway answers 402 with these terms; the agent pays from its grant (x402 or MPP) and calls again with the payment; the gateway forwards the call to the seller.")),
    h("p", {},
      h("a", { href: "/SKILL.md" }, "SKILL.md"), " (the agent's instructions) · ",
      h("a", { href: `/v1/services/${encodeURIComponent(entry.id)}.md` }, "these terms as Markdown"), " · ",
      h("a", { href: "/docs" }, "API reference"), " · ",
      h("a", { href: "/llms.txt" }, "llms.txt")))

/** One service's page: its terms as the API states them, and how to pay. */
const servicePage = (entry: Entry) =>
  h("article", { class: "service-page", "data-service": entry.id, "aria-labelledby": "service-page-title" },
    h("header", {},
      h("h3", { id: "service-page-title" }, entry.name),
      h("span", { class: "status", "data-status": entry.status }, entry.status)),
    h("p", {}, entry.description),
    h("dl", {},
      h("dt", {}, "Call"), h("dd", { class: "mono" }, `${entry.method} ${entry.resourceUrl}`),
      h("dt", {}, "Price per call"), h("dd", { class: "price" }, amountText(entry.price, entry.decimals, entry.asset)),
      h("dt", {}, "Coin"), h("dd", {}, coinLabel(entry.asset), " ", h("span", { class: "mono" }, entry.asset)),
      h("dt", {}, "Paid to"), h("dd", { class: "mono" }, entry.payTo),
      h("dt", {}, "Network"), h("dd", {}, entry.network),
      h("dt", {}, "Payment executed"), h("dd", {}, settlementText(entry)),
      h("dt", {}, "Payment protocols"), h("dd", {}, entry.dialects.join(", ")),
      h("dt", {}, "Answers"), h("dd", {}, entry.mimeType),
      h("dt", {}, "Service id"), h("dd", { class: "mono" }, entry.id)),
    howToPay(entry))

/**
 * The public catalog, shown before any wallet: search the live services
 * (GET /v1/services?q=) and open one's page. Only what the gateway lists is
 * shown; with none live it says so.
 */
export const catalogView = (api: GatewayApi, notices: Notices) => {
  const query = h("input", { id: "catalog-q", type: "search", name: "q", maxlength: 200, autocomplete: "off", placeholder: "weather, translation, …" })
  const searchButton = h("button", { type: "submit", id: "catalog-search" }, "Search")
  const summary = h("p", { id: "catalog-count", class: "hint", "aria-live": "polite" })
  const list = h("ul", { id: "catalog-list", class: "catalog-list" })
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More services")
  const page = h("div", { id: "service-page" })
  let cursor: string | null = null
  let searched = ""

  const close = h("button", { type: "button", class: "secondary", id: "service-page-close" }, "Close this service")
  close.addEventListener("click", () => {
    fill(page)
    history.replaceState(null, "", location.pathname + location.search)
  })

  const open = async (id: string) => {
    fill(page, servicePage(await api.service(id)), close)
    page.scrollIntoView({ block: "start" })
  }

  const item = (entry: Entry) => {
    const openButton = h("button", { type: "button", class: "secondary open-service", "aria-label": `Open ${entry.name}` }, "Open")
    openButton.addEventListener("click", () => {
      // The hash makes the page linkable; its listener opens it.
      if (location.hash === `#/services/${entry.id}`) void notices.run(`Opening ${entry.name}`, () => open(entry.id), openButton)
      else location.hash = `#/services/${entry.id}`
    })
    return h("li", { class: "catalog-entry", "data-service": entry.id },
      h("div", {}, h("strong", {}, entry.name), " ", h("span", { class: "price" }, amountText(entry.price, entry.decimals, entry.asset))),
      h("p", {}, entry.description),
      openButton)
  }

  const load = async (after: string | null) => {
    const result = await api.catalog(searched, after)
    list.append(...result.services.map(item))
    cursor = result.nextCursor
    more.hidden = cursor === null
    const matching = searched === "" ? "live" : `matching “${searched}”`
    summary.textContent = result.count === 0 ? `No services ${matching} yet.` : `${result.count} service${result.count === 1 ? "" : "s"} ${matching}.`
  }

  const search = async () => {
    searched = query.value.trim()
    fill(list)
    await load(null)
  }

  const form = h("form", { id: "catalog-form", role: "search", "aria-label": "Search the services" },
    h("div", { class: "row" }, h("label", { for: "catalog-q" }, "Search"), query, searchButton))
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void notices.run("Searching the services", search, searchButton)
  })
  more.addEventListener("click", () => notices.run("Loading more services", () => load(cursor), more))

  const openFromHash = () => {
    const id = SERVICE_HASH.exec(location.hash)?.[1]
    if (id !== undefined) void notices.run("Opening the service", () => open(id))
  }
  window.addEventListener("hashchange", openFromHash)

  const element = h("section", { id: "catalog", "aria-labelledby": "catalog-title" },
    h("h2", { id: "catalog-title" }, "Paid services"),
    h("p", { class: "hint" }, "The services agents can pay for through this gateway. No wallet needed to look."),
    form, summary, list, more, page)
  const start = () => notices.run("Loading the services", async () => {
    await search()
    openFromHash()
  })
  return { element, start }
}
