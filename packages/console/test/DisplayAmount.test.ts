import { describe, expect, it } from "@effect/vitest"
import { toAtomic, toDisplay } from "../src/DisplayAmount.ts"

describe("display amounts", () => {
  it("converts display units to atomic strings exactly", () => {
    expect(toAtomic("1.5", 9)).toEqual({ ok: true, atomic: "1500000000" })
    expect(toAtomic("0.000000001", 9)).toEqual({ ok: true, atomic: "1" })
    expect(toAtomic("12", 0)).toEqual({ ok: true, atomic: "12" })
    expect(toAtomic(".25", 2)).toEqual({ ok: true, atomic: "25" })
    expect(toAtomic(" 007.10 ", 6)).toEqual({ ok: true, atomic: "7100000" })
    // 0.1 + 0.2 style inputs a float would round: the string path is exact.
    expect(toAtomic("0.3", 18)).toEqual({ ok: true, atomic: "300000000000000000" })
    expect(toAtomic("18446744073.709551615", 9)).toEqual({ ok: true, atomic: "18446744073709551615" })
  })

  it("refuses what is not exact, positive and within u64", () => {
    expect(toAtomic("1.0000000001", 9)).toEqual({ ok: false, problem: "at most 9 digits after the point" })
    expect(toAtomic("1.5", 0)).toEqual({ ok: false, problem: "this coin has no fractional units" })
    expect(toAtomic("0", 9)).toEqual({ ok: false, problem: "must be greater than 0" })
    expect(toAtomic("0.000", 9)).toEqual({ ok: false, problem: "must be greater than 0" })
    expect(toAtomic("-1", 9)).toEqual({ ok: false, problem: "type a number such as 1.5" })
    expect(toAtomic("1e3", 9)).toEqual({ ok: false, problem: "type a number such as 1.5" })
    expect(toAtomic("", 9)).toEqual({ ok: false, problem: "type a number such as 1.5" })
    expect(toAtomic(".", 9)).toEqual({ ok: false, problem: "type a number such as 1.5" })
    expect(toAtomic("18446744073.709551616", 9)).toEqual({ ok: false, problem: "too large for the chain (u64)" })
  })

  it("shows atomic strings in display units", () => {
    expect(toDisplay("1500000000", 9)).toBe("1.5")
    expect(toDisplay("1", 9)).toBe("0.000000001")
    expect(toDisplay("0", 9)).toBe("0")
    expect(toDisplay("1000000000", 9)).toBe("1")
    expect(toDisplay("42", 0)).toBe("42")
  })

  it("round-trips every atomic amount", () => {
    for (const atomic of ["1", "10", "123456789", "18446744073709551615"]) {
      for (const decimals of [0, 2, 6, 9, 18]) {
        expect(toAtomic(toDisplay(atomic, decimals), decimals)).toEqual({ ok: true, atomic })
      }
    }
  })
})
