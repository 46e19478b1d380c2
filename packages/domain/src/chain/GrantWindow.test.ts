import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import {
  MAX_PERIOD_MS,
  MIN_PERIOD_MS,
  monthStartMs,
  nextMonthStartMs,
  NO_WINDOW,
  openingWindow,
  rollWindow,
  spendInWindow,
  validWindowArguments,
  windowEndMs,
  WindowKind,
  windowRemaining
} from "./GrantWindow.ts"

const utcMonthStart = (ms: number) => {
  const d = new Date(ms)
  return BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1))
}
/** Up to the year 9999, where Date and the module both reach. */
const instant = fc.integer({ min: 0, max: 253_402_300_799_999 })

describe("GrantWindow", () => {
  it("a calendar month starts where UTC's calendar says, for any instant", () => {
    fc.assert(fc.property(instant, (ms) => {
      expect(monthStartMs(BigInt(ms))).toBe(utcMonthStart(ms))
      const next = new Date(ms)
      expect(nextMonthStartMs(BigInt(ms))).toBe(BigInt(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)))
    }))
  })

  it("month boundaries: the last ms of a month and the first of the next, leap years included", () => {
    const feb29 = BigInt(Date.UTC(2028, 1, 29, 23, 59, 59, 999))
    expect(monthStartMs(feb29)).toBe(BigInt(Date.UTC(2028, 1, 1)))
    expect(monthStartMs(feb29 + 1n)).toBe(BigInt(Date.UTC(2028, 2, 1)))
    expect(monthStartMs(0n)).toBe(0n)
    expect(nextMonthStartMs(BigInt(Date.UTC(2026, 11, 31, 12)))).toBe(BigInt(Date.UTC(2027, 0, 1)))
  })

  it("a fixed window keeps its phase and resets what was spent at each period", () => {
    const opened = openingWindow({ kind: WindowKind.period, periodMs: 86_400_000n, limit: 100n }, 1_000n)
    const spent = spendInWindow(opened, 5_000n, 100n)
    expect(windowRemaining(spent, 86_400_999n)).toBe(0n)
    expect(windowRemaining(spent, 86_401_000n)).toBe(100n)
    const later = rollWindow(spent, 3n * 86_400_000n + 7n)
    expect(later.startMs).toBe(2n * 86_400_000n + 1_000n)
    expect(windowEndMs(later)).toBe(3n * 86_400_000n + 1_000n)
  })

  it("a calendar-month window resets at the month boundary in UTC", () => {
    const march31 = BigInt(Date.UTC(2027, 2, 31, 23, 0))
    const opened = openingWindow({ kind: WindowKind.calendarMonth, limit: 50n }, march31)
    expect(opened.startMs).toBe(BigInt(Date.UTC(2027, 2, 1)))
    const spent = spendInWindow(opened, march31, 50n)
    expect(windowRemaining(spent, BigInt(Date.UTC(2027, 3, 1)) - 1n)).toBe(0n)
    expect(windowRemaining(spent, BigInt(Date.UTC(2027, 3, 1)))).toBe(50n)
  })

  it("spending never exceeds the limit within one window, whatever the payments and times", () => {
    fc.assert(fc.property(
      fc.bigInt({ min: MIN_PERIOD_MS, max: MAX_PERIOD_MS }),
      fc.bigInt({ min: 1n, max: 1_000n }),
      fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 10n * 86_400_000n }), fc.bigInt({ min: 1n, max: 300n })), { maxLength: 30 }),
      (periodMs, limit, steps) => {
        let window = openingWindow({ kind: WindowKind.period, periodMs, limit }, 0n)
        let now = 0n
        for (const [advance, amount] of steps) {
          now += advance
          const remaining = windowRemaining(window, now) ?? 0n
          if (amount <= remaining) window = spendInWindow(window, now, amount)
          expect(window.spent <= window.limit).toBe(true)
          expect(now >= window.startMs || window.spent === 0n).toBe(true)
        }
      }
    ))
  })

  it("the module's argument rules", () => {
    expect(validWindowArguments(WindowKind.none, 0n, 0n)).toBe(true)
    expect(validWindowArguments(WindowKind.none, 0n, 1n)).toBe(false)
    expect(validWindowArguments(WindowKind.period, MIN_PERIOD_MS - 1n, 1n)).toBe(false)
    expect(validWindowArguments(WindowKind.period, MAX_PERIOD_MS + 1n, 1n)).toBe(false)
    expect(validWindowArguments(WindowKind.period, MIN_PERIOD_MS, 0n)).toBe(false)
    expect(validWindowArguments(WindowKind.calendarMonth, 0n, 1n)).toBe(true)
    expect(validWindowArguments(WindowKind.calendarMonth, 1n, 1n)).toBe(false)
    expect(validWindowArguments(3, 0n, 1n)).toBe(false)
    expect(windowRemaining(NO_WINDOW, 5n)).toBeUndefined()
  })
})
