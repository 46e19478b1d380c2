/// <reference lib="dom" />
import { asFailure } from "./ApiFailure.ts"
import { coinDecimals } from "./ChainReads.ts"
import { amountText } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import { fill, h } from "./Dom.ts"
import type { PaymentPage } from "./GatewayApi.ts"

/** Whose payments: a delegated signer's (the owner's view) or a service's (the seller's view). */
export type PaymentsOf = { readonly kind: "signer" | "service"; readonly id: string }

const outcomeText = (outcome: PaymentPage["payments"][number]["outcome"]) =>
  [outcome.state.replace("_", " "), outcome.upstreamStatus === null ? null : `HTTP ${outcome.upstreamStatus}`, outcome.reason]
    .filter((part) => part !== null)
    .join(": ")

/** A paginated list of payments, newest first, with a button for older ones. */
export const paymentsList = (context: ConsoleContext, of: PaymentsOf) => {
  const { api, wallet, notices } = context
  const body = h("tbody")
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "Older payments")
  let cursor: string | null = null

  const page = (after: string | null): Promise<PaymentPage> =>
    of.kind === "signer" ? api.signerPayments(of.id, after) : api.servicePayments(of.id, after)

  const append = async (result: PaymentPage) => {
    const rows = await Promise.all(result.payments.map(async (payment) => {
      const decimals = await coinDecimals(wallet.client, payment.asset)
      return h("tr", { "data-digest": payment.digest },
        h("td", {}, payment.createdAt),
        h("td", {}, h("abbr", { title: payment.serviceId }, payment.serviceName)),
        h("td", { class: "amount" }, amountText(payment.amount, decimals, payment.asset)),
        h("td", { class: "mono" }, payment.recipient),
        h("td", { class: "mono" }, payment.digest),
        h("td", { class: "outcome", "data-outcome": payment.outcome.state }, outcomeText(payment.outcome)))
    }))
    body.append(...rows)
    cursor = result.nextCursor
    more.hidden = cursor === null
  }

  /** A listing that fails says so in place: the rest of the card (status, budgets, controls) stays usable. */
  const refresh = async () => {
    fill(body)
    try {
      await append(await page(null))
    } catch (cause) {
      const failure = asFailure(cause, "INTERNAL")
      body.append(h("tr", {}, h("td", { colspan: 6, class: "error" }, `Payments could not be listed: ${failure.message}. ${failure.advice}`)))
      return
    }
    if (body.childElementCount === 0) body.append(h("tr", {}, h("td", { colspan: 6 }, "No payments yet.")))
  }

  more.addEventListener("click", () => notices.run("Loading older payments", async () => append(await page(cursor)), more))

  const element = h("details", { class: "payments", open: true },
    h("summary", {}, "Payments"),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, ...["Time", "Service", "Amount", "Recipient", "Digest", "Outcome"].map((c) => h("th", { scope: "col" }, c)))),
      body)),
    more)
  return { element, refresh }
}
