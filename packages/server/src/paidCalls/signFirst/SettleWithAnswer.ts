import { Effect, Option } from "effect"
import type { AskedCall } from "@gateway/domain/payment/PaidCallDecision"
import type { PaidAnswer } from "@gateway/domain/payment/RecordedPayment"
import type { Forwardable } from "../../catalog/Catalog.ts"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { persist } from "../ForwardPayment.ts"
import type { SignedCredential } from "../PaymentChallenge.ts"
import { settledAnswer } from "../SettledAnswer.ts"
import { settleSignedPayment } from "./SettleSignedPayment.ts"
import { settlementFailed, settlementPending, signAgain } from "./SignFirstRefusals.ts"
import { SignFirstRepo } from "./SignFirstRepo.ts"
import type { ReadPayment } from "./VerifySignedPayment.ts"

/** A reserved payment as this request holds it: what settling it needs, without reading it back. */
export interface Held {
  readonly read: ReadPayment
  readonly sponsored: boolean
  /** The payer's signature, then the sponsor's once co-signed. */
  readonly signatures: ReadonlyArray<string>
}

/**
 * Keeps the seller's answer with the payment, then settles it: the answer goes to the payer only once the payment
 * executed; a failure says whose it was.
 */
export const settleWithAnswer = Effect.fnUntraced(function*(
  target: Forwardable,
  credential: SignedCredential,
  held: Held,
  asked: AskedCall,
  kept: PaidAnswer
) {
  const { read } = held
  yield* persist((yield* SignFirstRepo).keepAnswer(read.digest, kept))
  const settled = yield* settleSignedPayment({
    digest: read.digest,
    nonce: credential.nonce,
    serviceId: target.entry.id,
    payer: read.tx.sender,
    amount: asked.price.toString(),
    status: "settling",
    txBytes: read.bytes,
    signatures: held.signatures,
    sponsored: held.sponsored,
    expiresEpoch: read.tx.expiration._tag === "Epoch" ? read.tx.expiration.epoch : 0n,
    settleError: null,
    answer: Option.some(kept),
    updatedAt: kept.answeredAt
  }, { verifiedUnexecuted: true })
  switch (settled._tag) {
    case "Settled":
      return settledAnswer(target, { digest: read.digest, nonce: credential.nonce }, { payer: read.tx.sender, amount: asked.price.toString() }, kept)
    case "Failed":
      return yield* (settled.fault === "network" ? signAgain(settled.reason) : settlementFailed(settled.reason))
    case "Pending":
      return yield* settlementPending(settled.reason)
  }
})

/**
 * A payment signed again after the network kept the first from settling: settled against the answer the seller
 * already gave, which it then receives; the seller is not asked again. Uninterruptible, as a forward is.
 */
export const settleAgainstKept = (target: Forwardable, credential: SignedCredential, reserved: Held, asked: AskedCall, kept: PaidAnswer) =>
  Effect.uninterruptible(Effect.flatMap(cosignBeforeForwarding(reserved), (held) => settleWithAnswer(target, credential, held, asked, kept)))

/**
 * A sponsored payment is co-signed before the seller is asked, and the co-signature kept with it: the sponsor's
 * build then holds its gas coin until it executes (a newer build for the same payer, or the build's expiry, would
 * otherwise release it while the seller works). Refused, the payment is released: nothing was forwarded.
 */
export const cosignBeforeForwarding = Effect.fnUntraced(function*(reserved: Held) {
  if (!reserved.sponsored || reserved.signatures.length > 1) return reserved
  const repo = yield* SignFirstRepo
  const { read } = reserved
  const cosigned = yield* (yield* Sponsorship).cosignPayment(read.tx.sender, read.bytes).pipe(
    Effect.tapError(() => persist(repo.release(read.digest, null)))
  )
  yield* persist(repo.addSponsorSignature(read.digest, cosigned))
  return { ...reserved, signatures: [...reserved.signatures, cosigned] }
})
