/**
 * A grant's spending window, exactly as `spend_account.move` rolls it in
 * `pay`: besides the lifetime budget, at most `limit` may be paid per window.
 * Named after `sui::allowance`'s windowed rate limit. A window is either a
 * fixed period (`periodMs`, counted from the grant's creation) or a calendar
 * month in UTC. The Move module, LocalLedger, the gateway's views and the
 * SDK's vouching all read these functions; they change with the Move source.
 */

/** The window's kind as the module stores it (`Window.kind`). */
export const WindowKind = { none: 0, period: 1, calendarMonth: 2 } as const
export type WindowKind = typeof WindowKind[keyof typeof WindowKind]

/** The shortest and longest fixed period the module accepts: a minute and 366 days. */
export const MIN_PERIOD_MS = 60_000n
export const MAX_PERIOD_MS = 366n * 86_400_000n

const DAY_MS = 86_400_000n

/** A grant's window as the module stores it. `kind` none: `periodMs`, `limit`, `startMs` and `spent` are 0. */
export interface GrantWindow {
  readonly kind: WindowKind
  readonly periodMs: bigint
  readonly limit: bigint
  /** When the current window began (Clock ms). */
  readonly startMs: bigint
  /** Paid in the window that began at `startMs`. */
  readonly spent: bigint
}

/** What an owner asks for at create: no window, or a limit per fixed period or per calendar month. */
export type WindowTerms =
  | { readonly kind: typeof WindowKind.none }
  | { readonly kind: typeof WindowKind.period; readonly periodMs: bigint; readonly limit: bigint }
  | { readonly kind: typeof WindowKind.calendarMonth; readonly limit: bigint }

export const NO_WINDOW: GrantWindow = { kind: WindowKind.none, periodMs: 0n, limit: 0n, startMs: 0n, spent: 0n }

/** The three values the create call carries: kind, period in ms (0 unless fixed), limit (0 without a window). */
export const windowArguments = (terms: WindowTerms): { readonly kind: number; readonly periodMs: bigint; readonly limit: bigint } =>
  terms.kind === WindowKind.none
    ? { kind: WindowKind.none, periodMs: 0n, limit: 0n }
    : terms.kind === WindowKind.period
    ? { kind: WindowKind.period, periodMs: terms.periodMs, limit: terms.limit }
    : { kind: WindowKind.calendarMonth, periodMs: 0n, limit: terms.limit }

/**
 * Whether the create's window arguments are ones the module accepts
 * (otherwise it aborts with EInvalidWindow): no window is all zeros; a fixed
 * period lies in [MIN_PERIOD_MS, MAX_PERIOD_MS]; a calendar month has no
 * period; a window's limit is positive.
 */
export const validWindowArguments = (kind: number, periodMs: bigint, limit: bigint): boolean => {
  if (kind === WindowKind.none) return periodMs === 0n && limit === 0n
  if (limit === 0n) return false
  if (kind === WindowKind.period) return periodMs >= MIN_PERIOD_MS && periodMs <= MAX_PERIOD_MS
  return kind === WindowKind.calendarMonth && periodMs === 0n
}

/**
 * The first ms of the UTC calendar month holding `ms` (Howard Hinnant's
 * days-from-civil, in unsigned integers as Move computes it).
 */
export const monthStartMs = (ms: bigint): bigint => {
  const z = ms / DAY_MS + 719_468n
  const era = z / 146_097n
  const doe = z - era * 146_097n
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n)
  const mp = (5n * doy + 2n) / 153n
  const firstDoy = (153n * mp + 2n) / 5n
  return (era * 146_097n + doe - (doy - firstDoy) - 719_468n) * DAY_MS
}

/** The first ms of the UTC calendar month after the one holding `ms`. */
export const nextMonthStartMs = (ms: bigint): bigint => monthStartMs(monthStartMs(ms) + 32n * DAY_MS)

/** The window's first start, at the grant's creation: now for a fixed period, the month's first ms for a calendar month. */
export const openingWindow = (terms: WindowTerms, nowMs: bigint): GrantWindow => {
  const args = windowArguments(terms)
  if (args.kind === WindowKind.none) return NO_WINDOW
  return {
    kind: args.kind as WindowKind,
    periodMs: args.periodMs,
    limit: args.limit,
    startMs: args.kind === WindowKind.calendarMonth ? monthStartMs(nowMs) : nowMs,
    spent: 0n
  }
}

/** When the window that began at `startMs` ends (and the next begins). */
export const windowEndMs = (window: GrantWindow): bigint =>
  window.kind === WindowKind.calendarMonth ? nextMonthStartMs(window.startMs) : window.startMs + window.periodMs

/**
 * The window as it stands at `nowMs`: unchanged inside the current window;
 * past its end, the window holding `nowMs` with nothing spent. A fixed
 * period's windows keep their phase: they start at whole periods after the first.
 */
export const rollWindow = (window: GrantWindow, nowMs: bigint): GrantWindow => {
  if (window.kind === WindowKind.none || nowMs < windowEndMs(window)) return window
  const startMs = window.kind === WindowKind.calendarMonth
    ? monthStartMs(nowMs)
    : window.startMs + ((nowMs - window.startMs) / window.periodMs) * window.periodMs
  return { ...window, startMs, spent: 0n }
}

/** What may still be paid in the window at `nowMs`; undefined without a window. */
export const windowRemaining = (window: GrantWindow, nowMs: bigint): bigint | undefined => {
  if (window.kind === WindowKind.none) return undefined
  const current = rollWindow(window, nowMs)
  return current.limit - current.spent
}

/** The window after a payment of `amount` at `nowMs` that the module accepted. */
export const spendInWindow = (window: GrantWindow, nowMs: bigint, amount: bigint): GrantWindow => {
  if (window.kind === WindowKind.none) return window
  const current = rollWindow(window, nowMs)
  return { ...current, spent: current.spent + amount }
}
