import { assert, describe, it } from "@effect/vitest"
import { allowedMethods, carriesBody } from "./PaidCallMethods.ts"

describe("paid-call methods", () => {
  it("allow the declared method, and HEAD beside GET only", () => {
    assert.deepStrictEqual(allowedMethods("GET"), ["GET", "HEAD"])
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) assert.deepStrictEqual(allowedMethods(method), [method])
  })

  it("send the seller a body, and so have a proof hash it, except for GET and HEAD", () => {
    assert.isFalse(carriesBody("GET"))
    assert.isFalse(carriesBody("HEAD"))
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) assert.isTrue(carriesBody(method))
  })
})
