import { assert, describe, it } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { isValidPersonalMessageSignature, isValidTransactionSignature } from "@mysten/sui/verify"
import fc from "fast-check"
import { personalMessageSignedBy, transactionSignedBy } from "./SuiSignatures.ts"

const alice = Ed25519Keypair.generate()
const bob = Ed25519Keypair.generate()
const carol = Secp256k1Keypair.generate()

/** Flips one bit of a base64 signature's 64 signature bytes (after the flag). */
const tampered = (signature: string, at: number) => {
  const bytes = Buffer.from(signature, "base64")
  const i = 1 + (at % 64)
  bytes[i] = (bytes[i] ?? 0) ^ 1
  return bytes.toString("base64")
}

describe("signatures checked natively answer as the SDK does", () => {
  it("personal messages: the signer's, another's, tampered, another message, another scheme, a short address", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), async (message, other, at) => {
        const signed = (await alice.signPersonalMessage(message)).signature
        const bySecp = (await carol.signPersonalMessage(message)).signature
        const cases: ReadonlyArray<readonly [Uint8Array, string, string]> = [
          [message, signed, alice.toSuiAddress()],
          [message, signed, bob.toSuiAddress()],
          [message, tampered(signed, at), alice.toSuiAddress()],
          [Uint8Array.from([...message, ...other]), signed, alice.toSuiAddress()],
          [message, bySecp, carol.toSuiAddress()],
          [message, bySecp, alice.toSuiAddress()],
          [message, signed, alice.toSuiAddress().replace(/^0x0+/, "0x")]
        ]
        for (const [m, s, address] of cases) {
          assert.strictEqual(await personalMessageSignedBy(m, s, address), await isValidPersonalMessageSignature(m, s, { address }))
        }
      }),
      { numRuns: 25 }
    )
  })

  it("transactions: the signer's is accepted, another key's or a tampered one refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), async (bytes, at) => {
        const { signature } = await alice.signTransaction(bytes)
        const cases: ReadonlyArray<readonly [string, string]> = [
          [signature, alice.toSuiAddress()],
          [signature, bob.toSuiAddress()],
          [tampered(signature, at), alice.toSuiAddress()],
          [(await carol.signTransaction(bytes)).signature, carol.toSuiAddress()]
        ]
        for (const [s, address] of cases) {
          assert.strictEqual(await transactionSignedBy(bytes, s, address), await isValidTransactionSignature(bytes, s, { address }))
        }
        assert.isTrue(await transactionSignedBy(bytes, signature, alice.toSuiAddress()))
      }),
      { numRuns: 25 }
    )
  })
})
