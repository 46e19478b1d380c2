import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { DAY_MS, perDay, perMinute, retryAfterSeconds, windowAt } from "./Quota.ts"

describe("Quota", () => {
  it("a moment lies in its window, and windows of one quota never overlap", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 1, max: 1e6 }), (now, limit) => {
      for (const quota of [perMinute(limit), perDay(limit)]) {
        const w = windowAt(quota, now)
        expect(w.startMs <= now && now < w.endMs).toBe(true)
        expect(w.startMs % quota.windowMs).toBe(0)
        expect(windowAt(quota, w.endMs).startMs).toBe(w.endMs)
      }
    }))
  })

  it("retry after: the seconds left in the window, never 0", () => {
    expect(retryAfterSeconds(perMinute(1), 60_000)).toBe(60)
    expect(retryAfterSeconds(perMinute(1), 119_999)).toBe(1)
    expect(retryAfterSeconds(perMinute(1), 90_500)).toBe(30)
    expect(retryAfterSeconds(perDay(1), DAY_MS - 1)).toBe(1)
  })
})
