/// <reference lib="dom" />
import { h } from "./Dom.ts"

/**
 * Two or more panels behind an ARIA tab list: one shown at a time, arrow
 * keys move between tabs, each tab names the panel it controls.
 */
export const tabs = (label: string, entries: ReadonlyArray<{ readonly id: string; readonly title: string; readonly panel: HTMLElement }>) => {
  const buttons = entries.map((entry) =>
    h("button", { type: "button", role: "tab", id: `tab-${entry.id}`, "aria-controls": entry.id, class: "tab" }, entry.title))
  const select = (index: number) => {
    entries.forEach((entry, i) => {
      const selected = i === index
      entry.panel.hidden = !selected
      buttons[i]?.setAttribute("aria-selected", String(selected))
      buttons[i]?.setAttribute("tabindex", selected ? "0" : "-1")
    })
  }
  buttons.forEach((button, i) => {
    button.addEventListener("click", () => select(i))
    button.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0
      if (step === 0) return
      const next = (i + step + buttons.length) % buttons.length
      select(next)
      buttons[next]?.focus()
    })
  })
  for (const entry of entries) {
    entry.panel.id = entry.id
    entry.panel.setAttribute("role", "tabpanel")
    entry.panel.setAttribute("aria-labelledby", `tab-${entry.id}`)
  }
  select(0)
  return h("div", { role: "tablist", "aria-label": label, class: "tabs" }, ...buttons)
}
