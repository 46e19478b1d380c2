/// <reference lib="dom" />
import { asFailure } from "./ApiFailure.ts"
import { coinDecimals } from "./ChainReads.ts"
import { amountText } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import { fill, h } from "./Dom.ts"
import type { SessionPage } from "./GatewayApi.ts"

/** Whose payment sessions: a delegated signer's (the owner's view) or a service's (the seller's view, which may claim). */
export type SessionsOf = { readonly kind: "signer" | "service"; readonly id: string }

type SessionView = SessionPage["sessions"][number]

/** One column: its heading and its cell, given the session and how to show one of its amounts. */
interface Column {
  readonly title: string
  readonly cell: (session: SessionView, amount: (atomic: string) => string) => HTMLTableCellElement
}

/** `0x1234…cdef`, the full address kept for the title. */
const shortAddress = (address: string) => h("abbr", { title: address }, `${address.slice(0, 6)}…${address.slice(-4)}`)

const amountColumn = (title: string, name: string, pick: (session: SessionView) => string | null): Column => ({
  title,
  cell: (session, amount) => {
    const atomic = pick(session)
    return h("td", { class: `amount ${name}` }, atomic === null ? "—" : amount(atomic))
  }
})

const COLUMNS = {
  agent: { title: "Agent", cell: (s) => h("td", { class: "mono delegate" }, shortAddress(s.delegate)) },
  deposit: amountColumn("Deposit", "deposit", (s) => s.deposit),
  used: amountColumn("Used", "used", (s) => s.used),
  calls: { title: "Calls", cell: (s) => h("td", { class: "calls" }, s.calls) },
  claimed: amountColumn("Claimed", "claimed", (s) => s.claimed),
  unclaimed: amountColumn("Unclaimed", "unclaimed", (s) => s.unclaimed),
  // Nothing goes back to the pool before the close: a dash while the session is open.
  returned: amountColumn("Returned", "returned", (s) => s.returned),
  state: { title: "State", cell: (s) => h("td", { class: "state" }, h("span", { class: "status", "data-status": s.state }, s.state)) },
  expires: { title: "Expires", cell: (s) => h("td", { class: "expires" }, s.expiresAt) }
} satisfies Record<string, Column>

/** The seller sees what each agent's session used, paid and owes; the owner what its deposits hold and gave back. */
const COLUMNS_OF: Record<SessionsOf["kind"], ReadonlyArray<Column>> = {
  service: [COLUMNS.agent, COLUMNS.deposit, COLUMNS.used, COLUMNS.calls, COLUMNS.claimed, COLUMNS.unclaimed, COLUMNS.returned, COLUMNS.state, COLUMNS.expires],
  signer: [COLUMNS.deposit, COLUMNS.used, COLUMNS.returned, COLUMNS.state, COLUMNS.expires]
}

const claimedText = (sessions: number) =>
  sessions === 0 ? "nothing was unclaimed." : `claimed the unclaimed vouchers of ${sessions} session${sessions === 1 ? "" : "s"}.`

/**
 * The payment sessions (docs/paid-calls.md §7) of a signer or a service, newest first, amounts in the
 * coin's display units; the seller's list has "Claim now", which claims every unclaimed voucher at once.
 */
export const sessionsList = (context: ConsoleContext, of: SessionsOf) => {
  const { api, wallet, notices } = context
  const columns = COLUMNS_OF[of.kind]
  const body = h("tbody")
  const claim = h("button", { type: "button", class: "secondary claim" }, "Claim now")

  const list = (): Promise<SessionPage> => (of.kind === "signer" ? api.signerSessions(of.id) : api.serviceSessions(of.id))

  const rows = (page: SessionPage) =>
    Promise.all(page.sessions.map(async (session) => {
      const decimals = await coinDecimals(wallet.client, session.asset)
      const amount = (atomic: string) => amountText(atomic, decimals, session.asset)
      return h("tr", { "data-session": session.sessionId, "data-state": session.state }, ...columns.map((column) => column.cell(session, amount)))
    }))

  /** A listing that fails says so in place, as the payments list does: the rest of the card stays usable. */
  const refresh = async () => {
    fill(body)
    try {
      body.append(...await rows(await list()))
    } catch (cause) {
      const failure = asFailure(cause, "INTERNAL")
      body.append(h("tr", {}, h("td", { colspan: columns.length, class: "error" }, `Sessions could not be listed: ${failure.message}. ${failure.advice}`)))
      return
    }
    if (body.childElementCount === 0) body.append(h("tr", {}, h("td", { colspan: columns.length }, "No sessions yet.")))
  }

  claim.addEventListener("click", () =>
    notices.run("Claiming your sessions' unclaimed vouchers", async () => {
      const { sessions } = await api.claimSessions(of.id)
      await refresh()
      return claimedText(sessions)
    }, claim))

  const element = h("details", { class: "sessions", open: true },
    h("summary", {}, "Sessions"),
    of.kind === "service" && h("p", { class: "hint" }, "The gateway also claims by itself when half a deposit is unclaimed and before a session expires."),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col" }, c.title)))),
      body)),
    of.kind === "service" && h("div", { class: "row actions" }, claim))
  return { element, refresh }
}
