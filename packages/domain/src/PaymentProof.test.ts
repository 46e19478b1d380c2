import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { challengeProofText, proofText, sha256Hex } from "./PaymentProof.ts"

const fields = {
  nonce: "svc_1.1.1800000000000.0123456789abcdef0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAA",
  digest: "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqv",
  method: "POST",
  url: "https://gateway.example/v1/pay/svc_1?q=1",
  bodySha256: createHash("sha256").update("{}").digest("hex")
}

describe("payment proof text", () => {
  it("is the versioned line and one field per line, in the documented order", () => {
    assert.strictEqual(
      proofText(fields),
      [
        "sui-gateway-payment-proof:v1",
        `nonce:${fields.nonce}`,
        `digest:${fields.digest}`,
        "method:POST",
        "url:https://gateway.example/v1/pay/svc_1?q=1",
        `body-sha256:${fields.bodySha256}`
      ].join("\n")
    )
  })

  it("refuses fields that would forge a line or are not canonical", () => {
    assert.isUndefined(proofText({ ...fields, url: "https://a/\nmethod:GET" }))
    assert.isUndefined(proofText({ ...fields, nonce: "" }))
    assert.isUndefined(proofText({ ...fields, method: "post" }))
    assert.isUndefined(proofText({ ...fields, bodySha256: fields.bodySha256.toUpperCase() }))
  })

  it("bound to the challenge: its own first line, the declared method and the resource URL, never a request proof's text", () => {
    const challenge = { nonce: fields.nonce, digest: fields.digest, method: "POST", url: "https://gateway.example/v1/pay/svc_1" }
    const text = challengeProofText(challenge)
    assert.strictEqual(
      text,
      ["sui-gateway-payment-proof:challenge:v1", `nonce:${fields.nonce}`, `digest:${fields.digest}`, "method:POST", "url:https://gateway.example/v1/pay/svc_1"].join("\n")
    )
    assert.notStrictEqual(text?.split("\n")[0], proofText(fields)?.split("\n")[0])
    assert.isUndefined(challengeProofText({ ...challenge, url: "https://a/\nbody-sha256:00" }))
    assert.isUndefined(challengeProofText({ ...challenge, method: "post" }))
  })

  it("hashes bodies as node:crypto does", async () => {
    const body = new TextEncoder().encode("héllo")
    assert.strictEqual(await sha256Hex(body), createHash("sha256").update(body).digest("hex"))
    assert.strictEqual(await sha256Hex(new Uint8Array()), createHash("sha256").digest("hex"))
  })
})
