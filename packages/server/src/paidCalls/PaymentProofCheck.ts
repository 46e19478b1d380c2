import { createHash } from "node:crypto"
import { isValidPersonalMessageSignature } from "@mysten/sui/verify"
import { Effect } from "effect"
import { proofMessage, proofUrl } from "@gateway/domain/PaymentProof"
import { Unavailable } from "@gateway/domain/Errors"
import type { PaymentCredential } from "./PaymentChallenge.ts"

/** The request a proof must name. */
export interface ProvenRequest {
  readonly method: string
  readonly resourceUrl: string
  readonly search: string
  readonly body: Uint8Array
}

/**
 * Whether the credential's proof is the delegate's signature over this very
 * request (nonce, digest, method, URL, body). A missing or malformed proof, or
 * one by any other key, is false. Only a failure to check at all (a zkLogin
 * signature whose keys cannot be fetched) is Unavailable, never reported as
 * a bad proof.
 */
export const provesPossession = (credential: PaymentCredential, request: ProvenRequest, delegate: string) =>
  Effect.gen(function*() {
    if (credential.proof === undefined) return false
    const message = proofMessage({
      nonce: credential.nonce,
      digest: credential.digest,
      method: request.method,
      url: proofUrl(request.resourceUrl, request.search),
      bodySha256: createHash("sha256").update(request.body).digest("hex")
    })
    if (message === undefined) return false
    const proof = credential.proof
    return yield* Effect.tryPromise({
      try: () => isValidPersonalMessageSignature(message, proof, { address: delegate }),
      catch: () => new Unavailable({ message: "The payment proof could not be checked now", reason: "payment_proof_unverifiable" })
    })
  })
