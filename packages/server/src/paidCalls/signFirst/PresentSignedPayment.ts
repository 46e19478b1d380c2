import { Clock, Effect, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { Conflict, Invalid } from "@gateway/domain/Errors"
import type { AskedCall } from "@gateway/domain/payment/PaidCallDecision"
import { rechallengeMessage, SIGNED_PAYMENT_LATE } from "@gateway/domain/payment/RechallengeMessage"
import { sellerAnswerSettles } from "@gateway/domain/payment/SellerAnswerSettles"
import { settlementFaultOf } from "@gateway/domain/payment/SettlementFault"
import { Catalog, type Forwardable } from "../../catalog/Catalog.ts"
import { callSeller } from "../CallSeller.ts"
import { openNonce } from "../ChallengeNonce.ts"
import { persist } from "../ForwardPayment.ts"
import { askedCallOf } from "../GatherFact.ts"
import { mintChallenge } from "../MintChallenge.ts"
import type { PaidCallRequest } from "../PaidCallRequest.ts"
import type { SignedCredential } from "../PaymentChallenge.ts"
import { PaymentChallengeKey } from "../PaymentChallengeKey.ts"
import { type CallTiming, startTiming, timedPart, withServerTiming } from "../ServerTiming.ts"
import { answerRecorded } from "./AnswerRecorded.ts"
import { reserveSigned } from "./ReserveSigned.ts"
import { SettlementNode } from "./SettlementNode.ts"
import { cosignBeforeForwarding, type Held, settleAgainstKept, settleWithAnswer } from "./SettleWithAnswer.ts"
import { inFlight, sellerFailed } from "./SignFirstRefusals.ts"
import { SignFirstRepo } from "./SignFirstRepo.ts"
import { ALREADY_EXECUTED, readSignedPayment, verifySignedPayment } from "./VerifySignedPayment.ts"

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
  if (challenge === undefined || challenge.serviceId !== target.entry.id) return yield* mintChallenge(target.entry, "unknown_challenge", rechallengeMessage("unknown_challenge"))
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
    if (recorded.value.nonce !== credential.nonce) return yield* mintChallenge(target.entry, "payment_for_another_challenge", rechallengeMessage("payment_for_another_challenge"))
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
    return yield* mintChallenge(target.entry, "challenge_expired", SIGNED_PAYMENT_LATE)
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
  const verified = yield* verifySignedPayment(read, credential, target, challenge, asked, cosignedBefore).pipe(
    // Executed while this request verified it: a concurrent presentation settled it, and its record answers.
    Effect.catchIf(
      (e) => e instanceof Conflict && e.reason === ALREADY_EXECUTED,
      (executed) =>
        Effect.flatMap(repo.find(read.digest), (now) =>
          Option.isSome(now) && now.value.status !== "not_charged" ? Effect.succeed(now.value) : Effect.fail(executed))
    )
  )
  if ("status" in verified) {
    const answered = yield* answerRecorded(target, credential, verified)
    return Option.isSome(answered) ? answered.value : yield* inFlight()
  }
  const recordedMeanwhile = yield* reserveSigned(verified, credential.signature)
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
