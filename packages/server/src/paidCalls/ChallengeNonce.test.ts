import { randomBytes } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { mintNonce, openNonce } from "./ChallengeNonce.ts"

const key = randomBytes(32)
const claims = { serviceId: "svc_0123456789abcdefghjkmnpqrs", revision: 3, expiresAtMs: 1_800_000_000_000 }

describe("challenge nonces", () => {
  it("opens to the claims it was minted with, and each mint is unique", () => {
    const a = mintNonce(key, claims)
    assert.deepStrictEqual(openNonce(key, a), claims)
    assert.notStrictEqual(a, mintNonce(key, claims))
  })

  it("refuses a nonce under another key", () => {
    assert.isUndefined(openNonce(randomBytes(32), mintNonce(key, claims)))
  })

  it("refuses every single-character alteration", () => {
    const nonce = mintNonce(key, claims)
    fc.assert(
      fc.property(fc.nat({ max: nonce.length - 1 }), fc.constantFrom(..."0123456789abcdefXYZ_-."), (at, c) => {
        const altered = `${nonce.slice(0, at)}${c}${nonce.slice(at + 1)}`
        return altered === nonce || openNonce(key, altered) === undefined
      }),
      { seed: 7, numRuns: 500 }
    )
  })

  it("refuses malformed nonces without throwing", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => openNonce(key, s) === undefined), { seed: 11, numRuns: 500 })
  })
})
