/**
 * Amounts as people type them (display units, e.g. "1.5" SUI) and as the
 * chain holds them (atomic units, e.g. "1500000000"), converted by string
 * arithmetic only: a float would round budgets the owner signs.
 */

const U64_MAX = 18446744073709551615n

export type Conversion =
  | { readonly ok: true; readonly atomic: string }
  | { readonly ok: false; readonly problem: string }

/** "1.5" with 9 decimals → "1500000000"; refuses anything that is not exact, positive and within u64. */
export const toAtomic = (display: string, decimals: number): Conversion => {
  const text = display.trim().replace(/_/g, "")
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text)
  if (text === "" || text === "." || match === null) return { ok: false, problem: "type a number such as 1.5" }
  const whole = match[1] ?? ""
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) {
    return { ok: false, problem: decimals === 0 ? "this coin has no fractional units" : `at most ${decimals} digits after the point` }
  }
  const digits = (whole + fraction.padEnd(decimals, "0")).replace(/^0+/, "")
  if (digits === "") return { ok: false, problem: "must be greater than 0" }
  if (BigInt(digits) > U64_MAX) return { ok: false, problem: "too large for the chain (u64)" }
  return { ok: true, atomic: digits }
}

/** "1500000000" with 9 decimals → "1.5"; trailing zeros of the fraction dropped. */
export const toDisplay = (atomic: string, decimals: number): string => {
  if (decimals === 0) return atomic
  const padded = atomic.padStart(decimals + 1, "0")
  const whole = padded.slice(0, padded.length - decimals)
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}
