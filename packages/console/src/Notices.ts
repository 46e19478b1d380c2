/// <reference lib="dom" />
import { asFailure } from "./ApiFailure.ts"
import { fill, h } from "./Dom.ts"

/**
 * The page's two live regions: progress (polite) and errors (assertive),
 * each error with its code, its message and what to do about it.
 */
export class Notices {
  readonly element: HTMLElement
  readonly #progress = h("p", { id: "progress", role: "status", "aria-live": "polite" })
  readonly #error = h("div", { id: "error", role: "alert", class: "error", hidden: true })

  constructor() {
    this.element = h("div", { class: "notices" }, this.#progress, this.#error)
  }

  progress(text: string) {
    this.#progress.textContent = text
  }

  clearError() {
    this.#error.hidden = true
    fill(this.#error)
  }

  error(cause: unknown) {
    const failure = asFailure(cause, "INTERNAL")
    fill(
      this.#error,
      h("p", {}, h("strong", { "data-code": failure.code }, failure.code), " ", failure.message),
      h("p", { class: "advice" }, failure.advice)
    )
    this.#error.hidden = false
  }

  /**
   * Runs one user action: its progress shown, any failure explained, controls that started it disabled meanwhile.
   * An action that reports its result (a sentence) has it shown in place of "done.".
   */
  async run(label: string, action: () => Promise<string | void>, control?: HTMLButtonElement) {
    this.clearError()
    this.progress(`${label}…`)
    if (control !== undefined) control.disabled = true
    try {
      const result = await action()
      this.progress(`${label}: ${typeof result === "string" ? result : "done."}`)
    } catch (cause) {
      this.progress(`${label}: failed.`)
      this.error(cause)
    } finally {
      if (control !== undefined) control.disabled = false
    }
  }
}
