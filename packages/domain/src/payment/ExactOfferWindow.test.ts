import { describe, expect, it } from "@effect/vitest"
import { offersExactAt } from "./ExactOfferWindow.ts"

describe("offersExactAt", () => {
  it("offers exact until the epoch's last maxTimeoutSeconds, and whenever the end is unknown", () => {
    const end = 1_000_000
    expect(offersExactAt(end, end - 300_001, 300)).toBe(true)
    expect(offersExactAt(end, end - 300_000, 300)).toBe(false)
    expect(offersExactAt(end, end + 5, 300)).toBe(false)
    expect(offersExactAt(undefined, end, 300)).toBe(true)
  })
})
