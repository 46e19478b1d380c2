import { Clock, Effect, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { Conflict, Invalid, TxFailed, Unavailable } from "@gateway/domain/Errors"
import type { AskedCall } from "@gateway/domain/payment/PaidCallDecision"
import type { PaidAnswer } from "@gateway/domain/payment/RecordedPayment"
import { sellerAnswerSettles } from "@gateway/domain/payment/SellerAnswerSettles"
import { settlementFaultOf } from "@gateway/domain/payment/SettlementFault"
import { AppConfig } from "../../Config.ts"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { Catalog, type Forwardable } from "../../catalog/Catalog.ts"
import { callSeller } from "../CallSeller.ts"
import { askedCallOf } from "../GatherFact.ts"
import { openNonce } from "../ChallengeNonce.ts"
import { persist } from "../ForwardPayment.ts"
import { mintChallenge } from "../MintChallenge.ts"
import type { PaidCallRequest } from "../PaidCallRequest.ts"
import type { SignedCredential } from "../PaymentChallenge.ts"
import { PaymentChallengeKey } from "../PaymentChallengeKey.ts"
import { settledAnswer } from "../SettledAnswer.ts"
import { type CallTiming, startTiming, timedPart, withServerTiming } from "../ServerTiming.ts"
import { SettlementNode } from "./SettlementNode.ts"
import { settlementPending, settleSignedPayment } from "./SettleSignedPayment.ts"
import { type SignFirstPayment, SignFirstRepo } from "./SignFirstRepo.ts"
import { type ReadPayment, readSignedPayment, type VerifiedPayment, verifySignedPayment } from "./VerifySignedPayment.ts"

const inFlight = () => new Conflict({ message: "This signed payment is being used by another request", reason: "payment_in_flight" })

const sellerFailed = (detail: string) =>
  new Unavailable({
    message: "The seller failed to answer; nothing was charged. Present the same signed payment again to retry",
    reason: `upstream_${detail}_nothing_charged_retry_with_the_same_payment`
  })

const settlementFailed = (reason: string) =>
  new TxFailed({
    message: "The seller answered, but the chain would not execute your payment, so its answer is withheld; nothing was charged",
    reason: `settlement_failed: ${reason}`
  })

/** The network, not the payer, kept the payment from settling: a payment signed again for the same challenge gets the kept answer. */
const signAgain = (reason: string) =>
  new Conflict({
    message:
      "The seller answered, but your signed payment could not be executed for a reason not yours (its epoch ended, the gas price moved, congestion). Sign a new payment for the same challenge and present it: it gets the kept answer, and the seller is not asked again",
    reason: `payment_must_be_signed_again: ${reason}`
  })


/** A payment recorded already, presented again: its kept answer, its failure, or (seller failed) another forward. */
const answerRecorded = Effect.fnUntraced(function*(target: Forwardable, credential: SignedCredential, payment: SignFirstPayment) {
  const config = yield* AppConfig
  const paid = { payer: payment.payer, amount: payment.amount }
  switch (payment.status) {
    case "settled": {
      const now = yield* Clock.currentTimeMillis
      const kept = Option.filter(payment.answer, (a) => now - a.answeredAt.getTime() <= config.paidAnswerRetentionMs)
      if (Option.isNone(kept)) return yield* new Conflict({ message: "This payment was answered, and its answer is no longer kept", reason: "paid_answer_expired" })
      return Option.some(settledAnswer(target, { digest: payment.digest, nonce: credential.nonce }, paid, kept.value))
    }
    case "settling":
      return yield* settlementPending("the answer is kept until the payment settles")
    case "settlement_failed":
      return yield* (settlementFaultOf(payment.settleError ?? "", payment.sponsored) === "network" && Option.isSome(payment.answer)
        ? signAgain(payment.settleError ?? "")
        : settlementFailed(payment.settleError ?? "unknown"))
    case "not_charged":
      return Option.none()
    default:
      return yield* inFlight()
  }
})

/**
 * Reserves the verified payment, or says why another payment stands in its way. Already recorded meanwhile (a
 * concurrent presentation settled it first): that record answers, as if it had been found before.
 */
const reserve = Effect.fnUntraced(function*(verified: VerifiedPayment, signature: string) {
  const outcome = yield* (yield* SignFirstRepo).reserve({
    claim: verified.claim,
    txBytes: verified.bytes,
    signature,
    sponsored: verified.sponsored,
    expiresEpoch: verified.tx.expiration._tag === "Epoch" ? verified.tx.expiration.epoch : 0n,
    holds: verified.holds,
    grantAvailable: verified.grantAvailable
  })
  switch (outcome._tag) {
    case "Reserved":
      return Option.none<SignFirstPayment>()
    case "InFlight":
      return yield* inFlight()
    case "ChallengeTaken":
      return yield* new Conflict({ message: "Another signed payment already paid this challenge: ask for a new one", reason: "challenge_already_paid" })
    case "Overlap":
      return yield* new Conflict({
        message: "Another of your payments is still unsettled and holds the same coins or balance: present it first, or wait for it to settle",
        reason: "payment_overlaps_unsettled_payment"
      })
    case "OverBudget":
      return yield* new Conflict({
        message: `The grant has ${outcome.available} left, and unsettled payments already hold ${outcome.reserved}: wait for them to settle`,
        reason: "grant_budget_held_by_unsettled_payments"
      })
    case "Recorded": {
      const recorded = yield* (yield* SignFirstRepo).find(verified.digest)
      if (Option.isSome(recorded)) return recorded
      return yield* new Conflict({ message: "This transaction is recorded as another payment", reason: "payment_recorded" })
    }
  }
})

/** A reserved payment as this request holds it: what settling it needs, without reading it back. */
interface Held {
  readonly read: ReadPayment
  readonly sponsored: boolean
  /** The payer's signature, then the sponsor's once co-signed. */
  readonly signatures: ReadonlyArray<string>
}

/**
 * Keeps the seller's answer with the payment, then settles it: the answer goes to the payer only once the payment
 * executed; a failure says whose it was.
 */
const settleWithAnswer = Effect.fnUntraced(function*(
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
const settleAgainstKept = (target: Forwardable, credential: SignedCredential, reserved: Held, asked: AskedCall, kept: PaidAnswer) =>
  Effect.uninterruptible(Effect.flatMap(cosignBeforeForwarding(reserved), (held) => settleWithAnswer(target, credential, held, asked, kept)))

/**
 * A sponsored payment is co-signed before the seller is asked, and the co-signature kept with it: the sponsor's
 * build then holds its gas coin until it executes (a newer build for the same payer, or the build's expiry, would
 * otherwise release it while the seller works). Refused, the payment is released: nothing was forwarded.
 */
const cosignBeforeForwarding = Effect.fnUntraced(function*(reserved: Held) {
  if (!reserved.sponsored || reserved.signatures.length > 1) return reserved
  const repo = yield* SignFirstRepo
  const { read } = reserved
  const cosigned = yield* (yield* Sponsorship).cosignPayment(read.tx.sender, read.bytes).pipe(
    Effect.tapError(() => persist(repo.release(read.digest, null)))
  )
  yield* persist(repo.addSponsorSignature(read.digest, cosigned))
  return { ...reserved, signatures: [...reserved.signatures, cosigned] }
})

/**
 * Forwards a reserved payment once and settles it after the answer: the seller failed (nothing executed, the
 * payment released for another presentation), or answered (the answer kept, then the transaction executed).
 * Uninterruptible from the reservation to the settled record: a caller who hangs up must not strand it.
 */
const forwardThenSettle = (
  request: PaidCallRequest,
  target: Forwardable,
  credential: SignedCredential,
  reserved: Held,
  asked: AskedCall,
  timing: CallTiming
) =>
  Effect.uninterruptible(Effect.gen(function*() {
    const repo = yield* SignFirstRepo
    const held = yield* cosignBeforeForwarding(reserved)
    const { digest } = held.read
    const answer = yield* timedPart(timing, "sellerNs", callSeller(request, target, digest))
    if (answer._tag !== "Answered" || !sellerAnswerSettles(answer.status)) {
      yield* persist(repo.release(digest, answer._tag === "Answered" ? answer.status : null))
      return yield* sellerFailed(answer._tag === "Answered" ? "failed" : answer._tag === "TooLarge" ? "answer_too_large" : answer._tag === "Forbidden" ? "address_refused" : "failed")
    }
    const kept = { status: answer.status, contentType: answer.contentType, body: answer.body, answeredAt: new Date(yield* Clock.currentTimeMillis) }
    return yield* settleWithAnswer(target, credential, held, asked, kept)
  }))

const present = Effect.fnUntraced(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: SignedCredential,
  timing: CallTiming
) {
  const { key } = yield* PaymentChallengeKey
  const challenge = openNonce(key, credential.nonce)
  if (challenge === undefined || challenge.serviceId !== target.entry.id) return yield* mintChallenge(target.entry, "unknown_challenge")
  if (target.entry.settlement === "before_forwarding") {
    return yield* new Invalid({
      message: "This service's payments are settled before the call is forwarded (its calls have side effects): pay upfront (sui-delegate)",
      reason: "service_settles_before_forwarding_pay_upfront"
    })
  }
  const read = yield* readSignedPayment(credential, (yield* Chain).pkg)
  const repo = yield* SignFirstRepo
  const recorded = yield* repo.find(read.digest)
  if (Option.isSome(recorded)) {
    if (recorded.value.nonce !== credential.nonce) return yield* mintChallenge(target.entry, "payment_for_another_challenge")
    const answered = yield* answerRecorded(target, credential, recorded.value)
    if (Option.isSome(answered)) return answered.value
  }
  // Signed again after the network kept an earlier payment of this challenge from settling: its kept answer waits,
  // whatever the challenge's expiry, and the seller is not asked again.
  const failedEarlier = Option.filter(
    yield* repo.findFailedWithAnswer(credential.nonce, read.tx.sender),
    (p) => settlementFaultOf(p.settleError ?? "", p.sponsored) === "network"
  )
  const keptEarlier = Option.flatMap(failedEarlier, (p) => p.answer)
  if (Option.isNone(keptEarlier) && (yield* Clock.currentTimeMillis) > challenge.expiresAtMs) {
    return yield* mintChallenge(target.entry, "challenge_expired")
  }
  const banned = yield* repo.bannedUntil(read.tx.sender)
  if (Option.isSome(banned)) {
    return yield* new Conflict({
      message: `A sign-first payment of yours failed to settle: pay upfront (sui-delegate) until ${banned.value.toISOString()}`,
      reason: "payer_upfront_only"
    })
  }
  const asked = askedCallOf(yield* (yield* Catalog).atRevision(challenge.serviceId, challenge.revision))
  const cosignedBefore = Option.exists(recorded, (p) => p.signatures.length > 1)
  const verified = yield* verifySignedPayment(read, credential, target, challenge, asked, cosignedBefore)
  const recordedMeanwhile = yield* reserve(verified, credential.signature)
  if (Option.isSome(recordedMeanwhile)) {
    const answered = yield* answerRecorded(target, credential, recordedMeanwhile.value)
    return Option.isSome(answered) ? answered.value : yield* inFlight()
  }
  // Taken back after its seller failed, it keeps the signatures it had (the sponsor's among them).
  const reserved: Held = {
    read,
    sponsored: verified.sponsored,
    signatures: Option.match(recorded, { onNone: () => [credential.signature], onSome: (p) => p.signatures })
  }
  if (Option.isSome(keptEarlier)) return yield* settleAgainstKept(target, credential, reserved, asked, keptEarlier.value)
  return yield* forwardThenSettle(request, target, credential, reserved, asked, timing)
})

/**
 * A sign-first payment (x402 `exact` on Sui, or MPP with a signed transaction): verified without writing anything,
 * reserved (one row, idempotent by digest), forwarded, and executed only after the seller answered. A presentation
 * of a payment already recorded gets its kept answer, its failure, or (its seller failed) one more forward.
 */
export const presentSignedPayment = Effect.fn("PaidCalls.presentSignedPayment")(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: SignedCredential
) {
  const timing = yield* startTiming
  const node = yield* SettlementNode
  // The chain's share of this call's time, for its Server-Timing header.
  const timedNode = SettlementNode.of({
    currentEpoch: timedPart(timing, "chainNs", node.currentEpoch),
    epochNaming: (named) => timedPart(timing, "chainNs", node.epochNaming(named)),
    simulate: (bytes) => timedPart(timing, "chainNs", node.simulate(bytes)),
    executed: (digest) => timedPart(timing, "chainNs", node.executed(digest)),
    execute: (bytes, signatures) => timedPart(timing, "chainNs", node.execute(bytes, signatures))
  })
  const result = yield* present(request, target, credential, timing).pipe(Effect.provideService(SettlementNode, timedNode))
  return yield* withServerTiming(result, timing)
})
