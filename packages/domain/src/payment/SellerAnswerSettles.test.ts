import { describe, expect, it } from "@effect/vitest"
import { sellerAnswerSettles } from "./SellerAnswerSettles.ts"

describe("sellerAnswerSettles", () => {
  it("settles on answers the seller gave to the request, never on its failures", () => {
    expect([200, 201, 204, 301, 304, 400, 401, 404, 422].every(sellerAnswerSettles)).toBe(true)
    expect([408, 429, 500, 502, 503, 504, 100, 199].some(sellerAnswerSettles)).toBe(false)
  })
})
