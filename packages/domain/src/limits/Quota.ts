/**
 * A limit on how much of something one party may use in a fixed window of time: `limit` units (requests, gas
 * units) per `windowMs`. Windows are aligned to the epoch, so every replica counts into the same one.
 */
export interface Quota {
  readonly limit: number
  readonly windowMs: number
}

export const MINUTE_MS = 60_000
export const DAY_MS = 24 * 60 * MINUTE_MS

export const perMinute = (limit: number): Quota => ({ limit, windowMs: MINUTE_MS })
export const perDay = (limit: number): Quota => ({ limit, windowMs: DAY_MS })

/** The window `nowMs` falls in: `[startMs, endMs)`. */
export const windowAt = (quota: Quota, nowMs: number): { readonly startMs: number; readonly endMs: number } => {
  const startMs = Math.floor(nowMs / quota.windowMs) * quota.windowMs
  return { startMs, endMs: startMs + quota.windowMs }
}

/** Whole seconds until the window ends, at least 1: the `Retry-After` of a refusal at `nowMs`. */
export const retryAfterSeconds = (quota: Quota, nowMs: number): number =>
  Math.max(1, Math.ceil((windowAt(quota, nowMs).endMs - nowMs) / 1000))
