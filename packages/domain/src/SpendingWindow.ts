import { Schema } from "effect"
import { described, documented } from "./Doc.ts"
import { AtomicAmount, PositiveAtomicAmount } from "./Amount.ts"
import { MAX_PERIOD_MS, MIN_PERIOD_MS, WindowKind, type WindowTerms } from "./chain/GrantWindow.ts"

/**
 * A grant's spending window as the API speaks it: at most `limitAtomic` per
 * named period (`hour`, `day`, `week`: fixed periods counted from the grant's
 * creation; `calendar_month`: a UTC calendar month) or per fixed `periodMs`.
 * The chain enforces it in `pay` (`chain/GrantWindow.ts`).
 */

/** Fixed periods by name; a calendar month is not a fixed length, so it is a kind of its own. */
export const NAMED_PERIOD_MS = { hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const

export const WindowPeriod = Schema.Literals(["hour", "day", "week", "calendar_month"])
export type WindowPeriod = typeof WindowPeriod.Type

/** A fixed period in milliseconds, within the module's bounds (a minute to 366 days). */
export const PeriodMs = Schema.Number.pipe(
  Schema.check(
    Schema.isInt(),
    // Decoding with `errors: "all"` runs this check even after `isInt` failed: only integers reach BigInt.
    Schema.makeFilter((ms: number) =>
      !Number.isInteger(ms) || (BigInt(ms) >= MIN_PERIOD_MS && BigInt(ms) <= MAX_PERIOD_MS) ||
      `must be between ${MIN_PERIOD_MS} (a minute) and ${MAX_PERIOD_MS} (366 days) milliseconds`
    )
  )
)

/** What an owner asks for on create: exactly one of `period` and `periodMs`. */
export const SpendingWindow = Schema.Struct({
  limitAtomic: described(PositiveAtomicAmount, "At most this much may be paid per window, in atomic units of the asset."),
  period: Schema.optionalKey(documented(
    WindowPeriod,
    "A named window: hour, day or week (fixed periods counted from the grant's creation) or calendar_month (a UTC calendar month); or give periodMs.",
    "day"
  )),
  periodMs: Schema.optionalKey(documented(PeriodMs, "A fixed window length in milliseconds, from 60000 (a minute) to 366 days; or give period.", 3_600_000))
}).pipe(
  Schema.check(
    Schema.makeFilter((w) =>
      (w.period === undefined) !== (w.periodMs === undefined) || {
        path: ["period"],
        issue: "give exactly one of period (hour, day, week, calendar_month) and periodMs"
      }
    )
  )
)
export type SpendingWindow = typeof SpendingWindow.Type

/** A grant's window in list, get and manifest answers: `period` names it when it has a name, `periodMs` is null for a calendar month. */
export const SpendingWindowView = Schema.Struct({
  limitAtomic: described(AtomicAmount, "At most this much may be paid per window, in atomic units of the asset."),
  period: documented(
    Schema.NullOr(WindowPeriod),
    "The window's name: hour, day, week or calendar_month; null for a fixed length that has no name.",
    "day"
  ),
  periodMs: documented(Schema.NullOr(Schema.Int), "The window's length in milliseconds (also given for hour, day and week); null for calendar_month.", 86_400_000)
})
export type SpendingWindowView = typeof SpendingWindowView.Type

/** The window as the gateway stores it with a grant: the create's three window arguments, amounts as decimal strings. */
export const StoredWindow = Schema.Struct({
  kind: Schema.Literals([WindowKind.none, WindowKind.period, WindowKind.calendarMonth]),
  periodMs: AtomicAmount,
  limit: AtomicAmount
})
export type StoredWindow = typeof StoredWindow.Type

export const NO_STORED_WINDOW: StoredWindow = { kind: WindowKind.none, periodMs: AtomicAmount.make("0"), limit: AtomicAmount.make("0") }

/** The terms the create carries on chain; none without a window. */
export const windowTermsOf = (window: SpendingWindow | null | undefined): WindowTerms => {
  if (window === null || window === undefined) return { kind: WindowKind.none }
  const limit = BigInt(window.limitAtomic)
  if (window.period === "calendar_month") return { kind: WindowKind.calendarMonth, limit }
  const periodMs = window.period === undefined ? window.periodMs ?? 0 : NAMED_PERIOD_MS[window.period]
  return { kind: WindowKind.period, periodMs: BigInt(periodMs), limit }
}

export const storedWindowOf = (terms: WindowTerms): StoredWindow =>
  terms.kind === WindowKind.none
    ? NO_STORED_WINDOW
    : {
      kind: terms.kind,
      periodMs: AtomicAmount.make(terms.kind === WindowKind.period ? terms.periodMs.toString() : "0"),
      limit: AtomicAmount.make(terms.limit.toString())
    }

export const termsOfStored = (stored: StoredWindow): WindowTerms =>
  stored.kind === WindowKind.none
    ? { kind: WindowKind.none }
    : stored.kind === WindowKind.calendarMonth
    ? { kind: WindowKind.calendarMonth, limit: BigInt(stored.limit) }
    : { kind: WindowKind.period, periodMs: BigInt(stored.periodMs), limit: BigInt(stored.limit) }

const nameOf = (periodMs: number): WindowPeriod | null =>
  periodMs === NAMED_PERIOD_MS.hour ? "hour" : periodMs === NAMED_PERIOD_MS.day ? "day" : periodMs === NAMED_PERIOD_MS.week ? "week" : null

/** The window as answers show it; null without a window. */
export const windowViewOf = (stored: StoredWindow): SpendingWindowView | null => {
  if (stored.kind === WindowKind.none) return null
  if (stored.kind === WindowKind.calendarMonth) return { limitAtomic: stored.limit, period: "calendar_month", periodMs: null }
  const periodMs = Number(stored.periodMs)
  return { limitAtomic: stored.limit, period: nameOf(periodMs), periodMs }
}
