import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { AtomicAmount, PositiveAtomicAmount, U64_MAX } from "./Amount.ts"
import { expiryMs, ExpiresAtInput } from "./ExpiresAt.ts"

const accepts = (schema: Schema.Top & { readonly DecodingServices: never }, input: unknown) =>
  Schema.decodeUnknownExit(schema)(input)._tag === "Success"

describe("AtomicAmount", () => {
  it("accepts every u64 in canonical decimal form", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (n) => {
        expect(accepts(AtomicAmount, n.toString())).toBe(true)
      }),
      { seed: 1 }
    )
  })

  it("rejects negatives, fractions, signs, leading zeros, numbers and values above u64", () => {
    for (const bad of ["-1", "1.5", "+1", "01", "1e3", " 1", "", "18446744073709551616", "99999999999999999999", 5]) {
      expect(accepts(AtomicAmount, bad), String(bad)).toBe(false)
    }
    expect(accepts(AtomicAmount, U64_MAX.toString())).toBe(true)
  })

  it("PositiveAtomicAmount rejects zero", () => {
    expect(accepts(PositiveAtomicAmount, "0")).toBe(false)
    expect(accepts(PositiveAtomicAmount, "1")).toBe(true)
  })
})

describe("ExpiresAtInput", () => {
  it("accepts ISO-8601, millisecond epochs and null, and maps them to expiry_ms", () => {
    expect(expiryMs(Schema.decodeUnknownSync(ExpiresAtInput)("2030-01-01T00:00:00Z"))).toBe(1893456000000n)
    expect(expiryMs(Schema.decodeUnknownSync(ExpiresAtInput)(1893456000000))).toBe(1893456000000n)
    expect(expiryMs(Schema.decodeUnknownSync(ExpiresAtInput)(null))).toBe(0n)
    expect(expiryMs(undefined)).toBe(0n)
  })

  it("rejects dates without a zone, fractions of a millisecond epoch and garbage", () => {
    for (const bad of ["2030-01-01", "2030-01-01T00:00:00", "2030-13-01T00:00:00Z", 1.5, -5, "tomorrow", true]) {
      expect(accepts(ExpiresAtInput, bad), String(bad)).toBe(false)
    }
  })
})
