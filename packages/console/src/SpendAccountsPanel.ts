/// <reference lib="dom" />
import { coinDecimals, withdrawKind } from "./ChainReads.ts"
import { amountText, coinLabel } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import { atomicOrFail } from "./AmountField.ts"
import { fill, h } from "./Dom.ts"
import type { GatewayApi } from "./GatewayApi.ts"
import { sleep } from "./Sleep.ts"

const SUI = "0x2::sui::SUI"
const POLL_MS = 400
const POLLS = 50

type SpendAccount = Awaited<ReturnType<GatewayApi["spendAccounts"]>>["spendAccounts"][number]

const accountsTable = (body: HTMLTableSectionElement) =>
  h("div", { class: "scroll" },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Coin"), h("th", { scope: "col" }, "Balance"), h("th", { scope: "col" }, "Pool"), h("th", { scope: "col" }, "Withdraw"))),
      body))

const fundForm = (coinInput: HTMLInputElement, amountInput: HTMLInputElement, unit: HTMLSpanElement, fundButton: HTMLButtonElement) =>
  h("form", { id: "fund-form", "aria-labelledby": "fund-title" },
    h("h3", { id: "fund-title" }, "Create a spend account or deposit"),
    h("label", { for: "fund-coin" }, "Coin type"), coinInput,
    h("label", { for: "fund-amount" }, "Amount"), amountInput, unit,
    fundButton)

/**
 * The owner's spend accounts (one pool per coin) with balances; create-or-deposit
 * through the API's prepared kind, withdraw through the page's own call.
 */
export const spendAccountsPanel = (context: ConsoleContext) => {
  const { api, wallet, notices } = context
  const sponsoredNotice = () => notices.progress("You hold no SUI: the platform pays this transaction's gas. Sign it in your wallet…")
  const body = h("tbody")
  const coins = h("datalist", { id: "known-coins" }, h("option", { value: SUI }))
  const coinInput = h("input", { id: "fund-coin", name: "coin", required: true, value: SUI, list: "known-coins", autocomplete: "off", spellcheck: "false" })
  const amountInput = h("input", { id: "fund-amount", name: "amount", required: true, inputmode: "decimal", autocomplete: "off" })
  const unit = h("span", { class: "hint", id: "fund-unit" })
  const fundButton = h("button", { type: "submit", id: "fund" }, "Create or deposit")

  const describeUnit = async () => {
    const decimals = await coinDecimals(wallet.client, coinInput.value.trim())
    unit.textContent = decimals === null ? "atomic units (this coin has no metadata on chain)" : `in ${coinInput.value.split("::").pop() ?? ""}, up to ${decimals} decimals`
  }
  coinInput.addEventListener("change", () => void describeUnit())

  /** Balances are read from final state: after a transaction, poll until the change shows. */
  const refreshUntilChanged = async (before: string) => {
    for (let i = 0; i < POLLS; i++) {
      const after = JSON.stringify((await api.spendAccounts()).spendAccounts)
      if (after !== before) return
      await sleep(POLL_MS)
    }
  }

  /** Withdraws the typed amount from `account`'s pool, signed in the wallet, then shows the new balance. */
  const withdraw = (account: SpendAccount, decimals: number | null, amountField: HTMLInputElement, button: HTMLButtonElement) =>
    notices.run("Withdrawing", async () => {
      const amount = BigInt(atomicOrFail("Withdraw amount", amountField.value, decimals))
      const before = JSON.stringify((await api.spendAccounts()).spendAccounts)
      const kind = await withdrawKind(wallet.client, { pool: account.pool, registry: account.registry, coinType: account.coinType, amount, owner: wallet.requireAddress() })
      await wallet.executeKind(kind, sponsoredNotice)
      await refreshUntilChanged(before)
      await refresh()
    }, button)

  const refresh = async () => {
    const { spendAccounts } = await api.spendAccounts()
    fill(coins, h("option", { value: SUI }), ...spendAccounts.filter((a) => a.coinType !== SUI).map((a) => h("option", { value: a.coinType })))
    const rows = await Promise.all(spendAccounts.map(async (account) => {
      const decimals = await coinDecimals(wallet.client, account.coinType)
      const withdrawAmount = h("input", { name: "withdraw", "aria-label": `Amount of ${account.coinType} to withdraw`, inputmode: "decimal", size: 10, autocomplete: "off" })
      const withdrawButton = h("button", { type: "button", class: "secondary" }, "Withdraw")
      withdrawButton.addEventListener("click", () => withdraw(account, decimals, withdrawAmount, withdrawButton))
      return h("tr", { "data-coin": account.coinType },
        h("td", {}, coinLabel(account.coinType)),
        h("td", { class: "balance" }, amountText(account.balance, decimals, account.coinType)),
        h("td", { class: "mono" }, account.pool),
        h("td", {}, h("div", { class: "row" }, withdrawAmount, withdrawButton)))
    }))
    fill(body, ...(rows.length === 0 ? [h("tr", {}, h("td", { colspan: 4 }, "No spend account yet: create one below."))] : rows))
  }

  const form = fundForm(coinInput, amountInput, unit, fundButton)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void notices.run("Funding the spend account", async () => {
      const asset = coinInput.value.trim()
      const decimals = await coinDecimals(wallet.client, asset)
      const depositAtomic = atomicOrFail("Amount", amountInput.value, decimals)
      const before = JSON.stringify((await api.spendAccounts()).spendAccounts)
      const prepared = await api.prepareSpendAccount(asset, depositAtomic)
      notices.progress("Sign the deposit in your wallet…")
      await wallet.executeKind(prepared.txKindBytes, sponsoredNotice)
      notices.progress("Waiting for the chain…")
      await refreshUntilChanged(before)
      await refresh()
      amountInput.value = ""
    }, fundButton)
  })
  void describeUnit()

  const element = h("section", { id: "spend-accounts", "aria-labelledby": "accounts-title" },
    h("h2", { id: "accounts-title" }, "Spend accounts"),
    accountsTable(body),
    form, coins)
  return { element, refresh }
}
