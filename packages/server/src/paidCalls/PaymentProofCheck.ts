import { createHash } from "node:crypto"
import { Effect } from "effect"
import { personalMessageSignedBy } from "@gateway/chain/SuiSignatures"
import { challengeProofMessage, proofMessage, proofUrl } from "@gateway/domain/PaymentProof"
import { Unavailable } from "@gateway/domain/Errors"
import type { PaymentCredential } from "./PaymentChallenge.ts"

/** The request a proof must name, and the one its challenge described. */
export interface ProvenRequest {
  readonly method: string
  readonly resourceUrl: string
  readonly search: string
  readonly body: Uint8Array
  /** The service's declared method, which a challenge-bound proof names (HEAD is called under GET's). */
  readonly declaredMethod: string
}

const messageOf = (credential: PaymentCredential, request: ProvenRequest) =>
  credential.binding === "challenge"
    ? challengeProofMessage({ nonce: credential.nonce, digest: credential.digest, method: request.declaredMethod, url: request.resourceUrl })
    : proofMessage({
      nonce: credential.nonce,
      digest: credential.digest,
      method: request.method,
      url: proofUrl(request.resourceUrl, request.search),
      bodySha256: createHash("sha256").update(request.body).digest("hex")
    })

/**
 * Whether the credential's proof is the delegate's signature over this
 * request (nonce, digest, method, URL, body), or, for a challenge-bound proof,
 * over the request the challenge describes. A missing or malformed proof, or
 * one by any other key, is false. Only a failure to check at all (a zkLogin
 * signature whose keys cannot be fetched) is Unavailable, never reported as
 * a bad proof.
 */
export const provesPossession = (credential: PaymentCredential, request: ProvenRequest, delegate: string) =>
  Effect.gen(function*() {
    if (credential.proof === undefined) return false
    const message = messageOf(credential, request)
    if (message === undefined) return false
    const proof = credential.proof
    return yield* Effect.tryPromise({
      try: () => personalMessageSignedBy(message, proof, delegate),
      catch: () => new Unavailable({ message: "The payment proof could not be checked now", reason: "payment_proof_unverifiable" })
    })
  })
