import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { parse, render } from "./SignInMessage.ts"

const line = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes("\n"))
const fields = fc.record({
  domain: line,
  address: line,
  uri: line,
  chainId: line,
  nonce: line,
  issuedAt: line,
  expirationTime: line
})

describe("SignInMessage", () => {
  it("parse inverts render", () => {
    fc.assert(fc.property(fields, (f) => {
      expect(parse(render(f))).toEqual(f)
    }), { seed: 7 })
  })

  it("rejects a text with any line changed", () => {
    const f = {
      domain: "gw.example",
      address: "0xabc",
      uri: "http://gw.example",
      chainId: "sui:localnet",
      nonce: "n1",
      issuedAt: "2026-01-01T00:00:00.000Z",
      expirationTime: "2026-01-01T00:05:00.000Z"
    }
    const lines = render(f).split("\n")
    for (let i = 0; i < lines.length; i++) {
      const tampered = lines.map((l, j) => (j === i ? `${l}x` : l)).join("\n")
      const parsed = parse(tampered)
      if (parsed !== undefined) expect(parsed).not.toEqual(f)
    }
    expect(parse(`${render(f)}\nextra`)).toBeUndefined()
  })
})
