/// <reference lib="dom" />
import type { ManagedService } from "@gateway/domain/CatalogEntry"
import type { ServiceSettlement } from "@gateway/domain/ServiceSettlement"
import { atomicOrFail } from "./AmountField.ts"
import { ApiFailure } from "./ApiFailure.ts"
import { coinDecimals } from "./ChainReads.ts"
import { amountText } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import { toDisplay } from "./DisplayAmount.ts"
import { fill, h } from "./Dom.ts"
import { paymentsList } from "./PaymentsList.ts"
import { sessionsList } from "./SessionsList.ts"

type Managed = (typeof ManagedService)["Encoded"]

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/** When an agent's sign-first payment is executed, as the form offers it and a service card shows it; the default first. */
const SETTLEMENTS: ReadonlyArray<readonly [ServiceSettlement, string]> = [
  ["after_answer", "after the answer (default)"],
  ["before_forwarding", "before forwarding (calls with side effects)"]
]
const settlementLabel = (settlement: ServiceSettlement) => SETTLEMENTS.find(([value]) => value === settlement)?.[1] ?? settlement

type ServiceInputs = ReturnType<typeof serviceInputs>

/** The form's fields, one per property of the service it registers or edits. */
const serviceInputs = () => ({
  name: h("input", { id: "svc-name", required: true, maxlength: 100, autocomplete: "off" }),
  description: h("textarea", { id: "svc-description", required: true, maxlength: 2000, rows: 2 }),
  method: h("select", { id: "svc-method" }, ...METHODS.map((m) => h("option", { value: m }, m))),
  settlement: h("select", { id: "svc-settlement" }, ...SETTLEMENTS.map(([value, label]) => h("option", { value }, label))),
  path: h("input", { id: "svc-path", required: true, value: "/", autocomplete: "off", spellcheck: "false" }),
  asset: h("input", { id: "svc-asset", required: true, value: "0x2::sui::SUI", list: "known-coins", autocomplete: "off", spellcheck: "false" }),
  decimals: h("input", { id: "svc-decimals", required: true, type: "number", min: 0, max: 18, value: 9 }),
  price: h("input", { id: "svc-price", required: true, inputmode: "decimal", autocomplete: "off" }),
  payTo: h("input", { id: "svc-pay-to", required: true, autocomplete: "off", spellcheck: "false" }),
  upstreamUrl: h("input", { id: "svc-upstream", required: true, type: "url", autocomplete: "off", spellcheck: "false" }),
  credential: h("input", { id: "svc-credential", type: "password", autocomplete: "new-password" })
})

/** Puts a service in the form to be edited: the credential is write-only, so the form says only whether one is set. */
const showForEdit = (inputs: ServiceInputs, { service, management }: Managed) => {
  inputs.name.value = service.name
  inputs.description.value = service.description
  inputs.method.value = service.method
  inputs.path.value = service.path
  inputs.asset.value = service.asset
  inputs.decimals.value = String(service.decimals)
  inputs.price.value = toDisplay(service.price, service.decimals)
  inputs.payTo.value = service.payTo
  inputs.settlement.value = service.settlement
  inputs.upstreamUrl.value = management.upstreamUrl
  inputs.credential.value = ""
  inputs.credential.placeholder = management.hasUpstreamCredential ? "set; leave empty to keep it" : ""
}

/** The register or edit request as the form holds it; an empty credential leaves the one set unchanged. */
const servicePayload = (inputs: ServiceInputs) => {
  const decimals = Number(inputs.decimals.value)
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18) throw new ApiFailure("INVALID", "Decimals: a whole number from 0 to 18")
  const credential = inputs.credential.value
  return {
    name: inputs.name.value.trim(),
    description: inputs.description.value.trim(),
    method: METHODS.find((m) => m === inputs.method.value) ?? "GET",
    path: inputs.path.value.trim(),
    price: atomicOrFail("Price", inputs.price.value, decimals),
    asset: inputs.asset.value.trim(),
    decimals,
    payTo: inputs.payTo.value.trim(),
    settlement: SETTLEMENTS.find(([value]) => value === inputs.settlement.value)?.[0] ?? "after_answer",
    upstreamUrl: inputs.upstreamUrl.value.trim(),
    ...(credential === "" ? {} : { upstreamCredential: credential })
  }
}

const field = (id: string, label: string, input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement) =>
  [h("label", { for: id }, label), input] as const

/** The register-or-edit form: every field with its label, then the save and cancel buttons. */
const serviceForm = (inputs: ServiceInputs, submit: HTMLButtonElement, cancelEdit: HTMLButtonElement) =>
  h("form", { id: "service-form", "aria-labelledby": "service-form-title" },
    h("h3", { id: "service-form-title" }, "Register or edit a paid service"),
    ...field("svc-name", "Name", inputs.name),
    ...field("svc-description", "Description", inputs.description),
    ...field("svc-method", "Method", inputs.method),
    ...field("svc-path", "Path agents call", inputs.path),
    ...field("svc-asset", "Coin type of the price", inputs.asset),
    ...field("svc-decimals", "Coin decimals", inputs.decimals),
    ...field("svc-price", "Price per call (display units)", inputs.price),
    ...field("svc-pay-to", "Pay to (your Sui address)", inputs.payTo),
    ...field("svc-settlement", "When an agent's payment is executed", inputs.settlement),
    ...field("svc-upstream", "Upstream URL the gateway forwards paid calls to", inputs.upstreamUrl),
    ...field("svc-credential", "Upstream bearer credential (optional, write-only)", inputs.credential),
    h("div", { class: "row" }, submit, cancelEdit))

/**
 * One service's card: what agents call and pay, its revisions, the paid calls
 * and sessions paying it; Edit hands it to `onEdit`, Activate activates its
 * draft and then runs `refresh`.
 */
const serviceCard = (context: ConsoleContext, managed: Managed, onEdit: (managed: Managed) => void, refresh: () => Promise<void>) => {
  const { api, notices } = context
  const { service, management } = managed
  const payments = paymentsList(context, { kind: "service", id: service.id })
  const sessions = sessionsList(context, { kind: "service", id: service.id })
  const activate = h("button", { type: "button", class: "activate", hidden: service.status === "live" && management.draftRevision === null }, "Activate")
  activate.addEventListener("click", () => notices.run(`Activating ${service.name}`, async () => {
    await api.activate(service.id)
    await refresh()
  }, activate))
  const edit = h("button", { type: "button", class: "secondary edit" }, "Edit")
  edit.addEventListener("click", () => onEdit(managed))
  const element = h("article", { class: "service", "data-service": service.id, "aria-labelledby": `title-${service.id}` },
    h("header", {},
      h("h3", { id: `title-${service.id}` }, service.name),
      h("span", { class: "status", "data-status": service.status }, service.status)),
    h("p", {}, service.description),
    h("dl", {},
      h("dt", {}, "Call"), h("dd", { class: "mono" }, `${service.method} ${service.resourceUrl}`),
      h("dt", {}, "Price"), h("dd", {}, amountText(service.price, service.decimals, service.asset)),
      h("dt", {}, "Payment executed"), h("dd", { class: "settlement" }, settlementLabel(service.settlement)),
      h("dt", {}, "Revisions"), h("dd", { class: "revisions" },
        `live revision ${service.activeRevision}`, management.draftRevision === null ? "" : `; draft revision ${management.draftRevision} awaiting activation`),
      h("dt", {}, "Updated"), h("dd", {}, management.updatedAt)),
    h("div", { class: "row actions" }, edit, activate),
    payments.element,
    sessions.element)
  return { element, lists: [payments, sessions] }
}

/**
 * The seller's side: register a paid service (a draft), edit it, activate
 * it, and see its revisions, the paid calls it received and the payment sessions paying it.
 */
export const sellerPanel = (context: ConsoleContext) => {
  const { api, wallet, notices } = context
  const inputs = serviceInputs()
  const submit = h("button", { type: "submit", id: "svc-save" }, "Register draft")
  const cancelEdit = h("button", { type: "button", class: "secondary", hidden: true }, "Cancel edit")
  const list = h("div", { id: "service-list" })
  let editing: string | null = null

  inputs.asset.addEventListener("change", async () => {
    const decimals = await coinDecimals(wallet.client, inputs.asset.value.trim())
    if (decimals !== null) inputs.decimals.value = String(decimals)
  })

  const startEdit = (managed: Managed) => {
    editing = managed.service.id
    showForEdit(inputs, managed)
    submit.textContent = "Save changes"
    cancelEdit.hidden = false
    inputs.name.focus()
  }

  const stopEdit = () => {
    editing = null
    form.reset()
    inputs.credential.placeholder = ""
    submit.textContent = "Register draft"
    cancelEdit.hidden = true
  }

  /** The seller's services as the API lists them (GET /v1/sellers/me/services): whichever browser registered them. */
  const refresh = async () => {
    const { services } = await api.myServices()
    // Sellers are usually paid at the address they sign in with: offered, never forced.
    if (inputs.payTo.value === "") inputs.payTo.value = wallet.address() ?? ""
    const cards = services.map((managed) => serviceCard(context, managed, startEdit, refresh))
    fill(list, ...(cards.length === 0 ? [h("p", {}, "No services registered yet: register one above.")] : cards.map((c) => c.element)))
    await Promise.all(cards.flatMap((c) => c.lists.map((l) => l.refresh())))
  }

  const form = serviceForm(inputs, submit, cancelEdit)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void notices.run(editing === null ? "Registering the service" : "Saving the service", async () => {
      const body = servicePayload(inputs)
      await (editing === null ? api.register(body) : api.edit(editing, body))
      stopEdit()
      await refresh()
    }, submit)
  })
  cancelEdit.addEventListener("click", stopEdit)

  const refreshButton = h("button", { type: "button", class: "secondary", id: "svc-refresh" }, "Refresh services")
  refreshButton.addEventListener("click", () => notices.run("Refreshing your services", refresh, refreshButton))

  const element = h("section", { id: "seller", "aria-labelledby": "seller-title" },
    h("h2", { id: "seller-title" }, "Your paid services"),
    form,
    h("div", { class: "row" }, refreshButton),
    list)
  return { element, refresh }
}
