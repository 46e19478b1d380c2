/// <reference lib="dom" />
import { atomicOrFail } from "./AmountField.ts"
import { ApiFailure } from "./ApiFailure.ts"
import { coinDecimals } from "./ChainReads.ts"
import { amountText } from "./CoinAmount.ts"
import type { ConsoleContext } from "./ConsoleContext.ts"
import { toDisplay } from "./DisplayAmount.ts"
import { fill, h } from "./Dom.ts"
import type { OwnerWallet } from "./OwnerWallet.ts"
import { signChanges } from "./SignChanges.ts"

interface ScopeInputs {
  readonly asset: HTMLInputElement
  readonly budget: HTMLInputElement
  readonly perPayment: HTMLInputElement
  readonly expiry: HTMLInputElement
  readonly windowPeriod: HTMLSelectElement
  readonly windowLimit: HTMLInputElement
}

/** The periods the form offers; the API also takes any fixed `periodMs` from a minute to 366 days. */
const WINDOW_PERIODS = [["", "No limit per period"], ["day", "Per day"], ["week", "Per week"], ["calendar_month", "Per calendar month (UTC)"]] as const
type WindowPeriod = Exclude<(typeof WINDOW_PERIODS)[number][0], "">

const isWindowPeriod = (value: string): value is WindowPeriod => WINDOW_PERIODS.some(([period]) => period !== "" && period === value)

interface ReviewedScope {
  readonly asset: string
  readonly decimals: number | null
  readonly totalBudgetAtomic: string
  readonly maxPerPaymentAtomic: string
  readonly expiresAt: string | null
  readonly window: { readonly limitAtomic: string; readonly period: WindowPeriod } | null
}

const periodText = (period: WindowPeriod) => (period === "calendar_month" ? "calendar month (UTC)" : period)

/** The scope's window as typed: none, or a limit per period checked against the cap and budget as the API will check it. */
const reviewedWindow = (inputs: ScopeInputs, i: number, decimals: number | null, caps: { budget: string; perPayment: string }) => {
  const period = inputs.windowPeriod.value
  if (!isWindowPeriod(period)) return null
  const limitAtomic = atomicOrFail(`Scope ${i + 1} limit per ${periodText(period)}`, inputs.windowLimit.value, decimals)
  if (BigInt(limitAtomic) < BigInt(caps.perPayment)) {
    throw new ApiFailure("INVALID", `Scope ${i + 1}: the limit per ${periodText(period)} is below the per-payment cap`)
  }
  if (BigInt(limitAtomic) > BigInt(caps.budget)) {
    throw new ApiFailure("INVALID", `Scope ${i + 1}: the limit per ${periodText(period)} exceeds the total budget`)
  }
  return { limitAtomic, period }
}

/** Scope `n`'s inputs; the first scope starts on SUI. */
const scopeInputs = (n: number): ScopeInputs => ({
  asset: h("input", { id: `scope-${n}-asset`, required: true, value: n === 1 ? "0x2::sui::SUI" : "", list: "known-coins", autocomplete: "off", spellcheck: "false" }),
  budget: h("input", { id: `scope-${n}-budget`, required: true, inputmode: "decimal", autocomplete: "off" }),
  perPayment: h("input", { id: `scope-${n}-per-payment`, required: true, inputmode: "decimal", autocomplete: "off" }),
  expiry: h("input", { id: `scope-${n}-expiry`, type: "datetime-local" }),
  windowPeriod: h("select", { id: `scope-${n}-window` }, ...WINDOW_PERIODS.map(([value, label]) => h("option", { value }, label))),
  windowLimit: h("input", { id: `scope-${n}-window-limit`, inputmode: "decimal", autocomplete: "off" })
})

const scopeFieldset = (n: number, inputs: ScopeInputs) =>
  h("fieldset", { class: "scope" },
    h("legend", {}, `Scope ${n}`),
    h("label", { for: inputs.asset.id }, "Coin type"), inputs.asset,
    h("label", { for: inputs.budget.id }, "Total budget (display units)"), inputs.budget,
    h("label", { for: inputs.perPayment.id }, "Per-payment cap (display units)"), inputs.perPayment,
    h("label", { for: inputs.expiry.id }, "Expires (optional, your local time)"), inputs.expiry,
    h("label", { for: inputs.windowPeriod.id }, "Spending window (optional; the chain enforces it)"), inputs.windowPeriod,
    h("label", { for: inputs.windowLimit.id }, "Limit per window (display units)"), inputs.windowLimit)

interface Choice {
  readonly id: string
  readonly name: string
}

/** The owner's policies and profiles as checkboxes, or a hint when there are none. */
const choiceBoxes = (policies: ReadonlyArray<Choice>, profiles: ReadonlyArray<Choice>) => [
  ...(policies.length + profiles.length === 0 ? [h("p", { class: "hint" }, "None defined: the signer may pay any service within its caps.")] : []),
  ...policies.map((p) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "policy", value: p.id }), ` Policy: ${p.name}`)),
  ...profiles.map((p) => h("label", { class: "check" }, h("input", { type: "checkbox", name: "profile", value: p.id }), ` Profile: ${p.name}`))
]

/** Scope `i` as typed, in atomic units, checked as the API will check it (the cap within the budget, the window between them). */
const reviewScope = async (wallet: OwnerWallet, inputs: ScopeInputs, i: number): Promise<ReviewedScope> => {
  const asset = inputs.asset.value.trim()
  const decimals = await coinDecimals(wallet.client, asset)
  const totalBudgetAtomic = atomicOrFail(`Scope ${i + 1} total budget`, inputs.budget.value, decimals)
  const maxPerPaymentAtomic = atomicOrFail(`Scope ${i + 1} per-payment cap`, inputs.perPayment.value, decimals)
  if (BigInt(maxPerPaymentAtomic) > BigInt(totalBudgetAtomic)) {
    throw new ApiFailure("INVALID", `Scope ${i + 1}: the per-payment cap exceeds the total budget`)
  }
  const expiresAt = inputs.expiry.value === "" ? null : new Date(inputs.expiry.value).toISOString()
  const window = reviewedWindow(inputs, i, decimals, { budget: totalBudgetAtomic, perPayment: maxPerPaymentAtomic })
  return { asset, decimals, totalBudgetAtomic, maxPerPaymentAtomic, expiresAt, window }
}

const reviewRow = (scope: ReviewedScope, label: string, typed: string, atomic: string) =>
  h("tr", {}, h("td", {}, label), h("td", {}, typed), h("td", { class: "mono" }, atomic),
    h("td", {}, scope.decimals === null ? `${atomic} atomic` : toDisplay(atomic, scope.decimals)))

/** What the review shows: every amount typed, in atomic units and read back, then each scope in words. */
const reviewShown = (result: ReadonlyArray<ReviewedScope>, scopes: ReadonlyArray<ScopeInputs>) => [
  h("h3", {}, "Check before signing"),
  h("div", { class: "scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Amount"), h("th", { scope: "col" }, "You typed"), h("th", { scope: "col" }, "Atomic units signed"), h("th", { scope: "col" }, "Reads back as"))),
    h("tbody", {}, ...result.flatMap((scope, i) => {
      const inputs = scopes[i]
      if (inputs === undefined) return []
      return [
        reviewRow(scope, `${scope.asset} budget`, inputs.budget.value, scope.totalBudgetAtomic),
        reviewRow(scope, `${scope.asset} per payment`, inputs.perPayment.value, scope.maxPerPaymentAtomic),
        ...(scope.window === null ? [] : [reviewRow(scope, `${scope.asset} per ${periodText(scope.window.period)}`, inputs.windowLimit.value, scope.window.limitAtomic)])
      ]
    })))),
  ...result.map((scope) =>
    h("p", {}, `${scope.asset}: expires ${scope.expiresAt ?? "never"}; budget ${amountText(scope.totalBudgetAtomic, scope.decimals, scope.asset)}${
      scope.window === null ? "" : `; at most ${amountText(scope.window.limitAtomic, scope.decimals, scope.asset)} per ${periodText(scope.window.period)}`
    }`))
]

/** The reviewed scopes as the create request carries them: no expiry or window where none was set. */
const assetScopes = (reviewed: ReadonlyArray<ReviewedScope>) =>
  reviewed.map((scope) => ({
    asset: scope.asset,
    totalBudgetAtomic: scope.totalBudgetAtomic,
    maxPerPaymentAtomic: scope.maxPerPaymentAtomic,
    ...(scope.expiresAt === null ? {} : { expiresAt: scope.expiresAt }),
    ...(scope.window === null ? {} : { window: scope.window })
  }))

/** The form's layout: who the signer is for, its choices and scopes, then review and create. */
const signerFormElement = (parts: {
  readonly agent: HTMLInputElement
  readonly name: HTMLInputElement
  readonly choices: HTMLFieldSetElement
  readonly scopeList: HTMLDivElement
  readonly addScope: () => void
  readonly reviewButton: HTMLButtonElement
  readonly review: HTMLDivElement
  readonly createButton: HTMLButtonElement
}) =>
  h("form", { id: "signer-form", "aria-labelledby": "signer-form-title" },
    h("h2", { id: "signer-form-title" }, "New delegated signer"),
    h("label", { for: "agent-address" }, "Agent address (the agent keeps its own key; you never see it)"), parts.agent,
    h("label", { for: "signer-name" }, "Name"), parts.name,
    parts.choices,
    parts.scopeList,
    h("div", { class: "row" },
      h("button", { type: "button", class: "secondary", id: "add-scope", onclick: () => parts.addScope() }, "Add another coin"),
      parts.reviewButton),
    parts.review,
    parts.createButton)

/**
 * Create a delegated signer: agent, name, policies and profiles, and one
 * scope per coin typed in display units. Review shows every amount both ways
 * (typed → atomic → read back) before anything is signed; then each grant's
 * create is signed in the wallet and finalized.
 */
export const signerForm = (context: ConsoleContext, onCreated: () => Promise<void>) => {
  const { api, wallet, notices } = context
  const scopes: Array<ScopeInputs> = []
  const scopeList = h("div", { id: "scopes" })
  const agent = h("input", { id: "agent-address", required: true, autocomplete: "off", spellcheck: "false", pattern: "0x[0-9a-fA-F]{1,64}" })
  const name = h("input", { id: "signer-name", maxlength: 100, autocomplete: "off" })
  const choices = h("fieldset", { id: "policy-choices" }, h("legend", {}, "Policies and profiles (optional)"))
  const review = h("div", { id: "review", "aria-live": "polite" })
  const reviewButton = h("button", { type: "submit", id: "review-signer" }, "Review")
  const createButton = h("button", { type: "button", id: "create-signer", hidden: true }, "Create and sign in wallet")
  let reviewed: ReadonlyArray<ReviewedScope> | null = null
  // One key per reviewed request: pressing create again after a failure replays it instead of making a second signer.
  let idempotencyKey = crypto.randomUUID()
  const finalized = new Set<string>()

  const addScope = () => {
    const n = scopes.length + 1
    const inputs = scopeInputs(n)
    scopes.push(inputs)
    scopeList.append(scopeFieldset(n, inputs))
    invalidate()
  }

  const invalidate = () => {
    if (reviewed !== null) idempotencyKey = crypto.randomUUID()
    reviewed = null
    createButton.hidden = true
    fill(review)
  }

  const loadChoices = async () => {
    const [{ policies }, { profiles }] = await Promise.all([api.policies(), api.profiles()])
    fill(choices, h("legend", {}, "Policies and profiles (optional)"), ...choiceBoxes(policies, profiles))
  }

  const checked = (group: string) =>
    Array.from(choices.querySelectorAll<HTMLInputElement>(`input[name=${group}]:checked`), (input) => input.value)

  const doReview = async () => {
    const result = await Promise.all(scopes.map((inputs, i) => reviewScope(wallet, inputs, i)))
    fill(review, ...reviewShown(result, scopes))
    reviewed = result
    createButton.hidden = false
    createButton.focus()
  }

  /** Creates the reviewed signer, then signs and finalizes each grant not finalized by an earlier press. */
  const create = async () => {
    if (reviewed === null) throw new ApiFailure("INVALID", "Review the amounts first.")
    const created = await api.createSigner({
      agentAddress: agent.value.trim(),
      ...(name.value.trim() === "" ? {} : { name: name.value.trim() }),
      policyIds: checked("policy"),
      profileIds: checked("profile"),
      assetScopes: assetScopes(reviewed)
    }, idempotencyKey)
    const unsigned = created.grants.filter((grant) => !finalized.has(grant.grantId))
    await signChanges(context, { kind: "create", signerId: created.delegatedSignerId, grants: unsigned }, (grantId, status, signerStatus) => {
      finalized.add(grantId)
      notices.progress(`Grant ${grantId} is ${status}; the signer is ${signerStatus}.`)
    })
    form.reset()
    invalidate()
    await onCreated()
  }

  const form = signerFormElement({ agent, name, choices, scopeList, addScope, reviewButton, review, createButton })
  form.addEventListener("input", invalidate)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void notices.run("Reviewing the signer", doReview, reviewButton)
  })
  createButton.addEventListener("click", () => notices.run("Creating the signer", create, createButton))

  addScope()
  return { element: form, loadChoices }
}
