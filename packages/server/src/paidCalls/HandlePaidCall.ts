import { Cause, Effect, Exit, Option } from "effect"
import { ForeignDigest, Invalid, NotFinal, TxFailed, Unverified } from "@gateway/domain/Errors"
import { clientKey } from "@gateway/domain/limits/ClientKey"
import { perMinute } from "@gateway/domain/limits/Quota"
import { allowedMethods } from "@gateway/domain/payment/PaidCallMethods"
import { AppConfig, type AppConfigShape } from "../Config.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { BatchedLimits } from "../limits/BatchedLimits.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { PAYMENT_REQUIRED } from "./ChallengeTemplates.ts"
import { type Malformed, malformedCredential } from "./MalformedCredential.ts"
import { mintChallenge } from "./MintChallenge.ts"
import { countPaidCall, type PaidCallFlow } from "../observability/PaidCallMetrics.ts"
import type { PaidCallRefusal, PaidCallRequest, PaidCallResult } from "./PaidCallRequest.ts"
import { type PaymentCredential, readCredential, readSignedCredential, type SignedCredential } from "./PaymentChallenge.ts"
import { PaymentChallengeKey } from "./PaymentChallengeKey.ts"
import { presentPayment } from "./PresentPayment.ts"
import { presentSignedPayment } from "./signFirst/PresentSignedPayment.ts"
import { presentVoucher, type SessionCredential } from "./sessions/PresentVoucher.ts"
import { readSessionCredential } from "./sessions/ReadSessionCredential.ts"

const tooManyChallenges = {
  message: "Too many payment challenges asked for by this client: try again after Retry-After seconds",
  reason: "payment_challenges_rate_limited"
}

const tooManyFailures = {
  message: "Too many payment credentials from this client failed: try again after Retry-After seconds",
  reason: "payment_presentations_rate_limited"
}

/** The per-client budget every 402 is counted in, by the app and by the Node server's own answers (http/AnswerChallenge.ts). */
export const challengeBucket = (clientAddress: string | undefined) => `paid_challenges:${clientKey(clientAddress)}`
export const challengeQuota = (config: AppConfigShape) => perMinute(config.paymentChallengesPerMinute)

/**
 * A presentation that did not fail by the presenter's doing: answered, or refused for a reason of the seller's, the
 * store's or the chain's. A fresh 402 for its credential, a payment that does not verify, and a presenter who hung
 * up (an interruption, no error) are the presenter's.
 */
const notThePresentersFault = (exit: Exit.Exit<PaidCallResult, PaidCallRefusal>) =>
  Exit.isSuccess(exit)
    ? exit.value._tag !== "PaymentRequired"
    : Option.exists(
      Cause.findErrorOption(exit.cause),
      (e) => !(e instanceof NotFinal || e instanceof Unverified || e instanceof TxFailed || e instanceof ForeignDigest || e instanceof Invalid)
    )

/** What a paid call presents, if anything: a session voucher, a signed payment, or an upfront payment's digest. */
interface Presented {
  readonly voucher: SessionCredential | undefined
  readonly signed: SignedCredential | undefined
  readonly credential: PaymentCredential | undefined
  /** A payment header that none of the above decodes from, and why. */
  readonly malformed: Malformed | undefined
}

/** A call to a service's paid-call address: refused for its method, challenged without a credential, or presented. */
const answerPaidCall = Effect.fnUntraced(function*(request: PaidCallRequest, { voucher, signed, credential, malformed }: Presented) {
  const config = yield* AppConfig
  const target = yield* (yield* Catalog).forForwarding(request.serviceId)
  const { entry } = target
  // A service is paid for, and called, only with its declared method: no other is challenged, accepted or forwarded.
  const allow = allowedMethods(entry.method)
  if (!allow.includes(request.method)) return { _tag: "MethodNotAllowed" as const, allow }
  const presented = voucher !== undefined
    ? Effect.exit(presentVoucher(request, target, voucher))
    : signed !== undefined
    ? Effect.exit(presentSignedPayment(request, target, signed))
    : credential !== undefined
    ? Effect.exit(presentPayment(request, target, credential))
    : undefined
  if (presented === undefined) {
    // A garbled header answered with a fresh 402 would have the payer pay again; say what to fix instead.
    if (malformed !== undefined) {
      return yield* new Invalid({ message: `${malformed.message}. This request moved no money; a payment you already made can still be presented with a well-formed header`, reason: malformed.reason })
    }
    // Minting stays write-free: the limit is counted in memory and added to the store in batches.
    yield* (yield* BatchedLimits).admit(challengeBucket(request.clientAddress), challengeQuota(config), tooManyChallenges)
    return yield* mintChallenge(entry, PAYMENT_REQUIRED)
  }
  // Each credential costs a chain read: a client whose credentials keep failing (made-up digests on freely minted
  // nonces) is refused before that, counted in the store across replicas. Every presentation takes a unit before
  // the read, so neither a burst nor a hang-up gets past the count, and one that was not the presenter's failure
  // gives it back: a client that pays properly never reaches the limit.
  const rateLimits = yield* RateLimits
  const presentations = perMinute(config.paymentFailuresPerMinute)
  const taken = yield* rateLimits.take(`paid_presentation_failures:${clientKey(request.clientAddress)}`, presentations, tooManyFailures)
  const exit = yield* presented
  if (notThePresentersFault(exit)) yield* Effect.ignore(rateLimits.giveBack(taken, 1))
  return yield* exit
})

/**
 * A paid call, counted by its flow and outcome (observability/PaidCallMetrics.ts) once answered or refused:
 * the one place every paid call the app answers passes (the Node server's own 402s count themselves).
 */
export const handlePaidCall = Effect.fn("PaidCalls.handle")(function*(request: PaidCallRequest) {
  const { mppSecret } = yield* PaymentChallengeKey
  // A session voucher first, then a sign-first payment (`exact`, or MPP's signed transaction), then an upfront digest.
  const voucher = readSessionCredential(request.headers, mppSecret)
  const signed = voucher === undefined ? readSignedCredential(request.headers, mppSecret) : undefined
  const credential = voucher === undefined && signed === undefined ? readCredential(request.headers, mppSecret) : undefined
  const flow: PaidCallFlow = voucher !== undefined
    ? "session"
    : signed !== undefined
    ? "sign_first"
    : credential !== undefined
    ? "upfront"
    : "challenge"
  const malformed = flow === "challenge" ? malformedCredential(request.headers) : undefined
  return yield* answerPaidCall(request, { voucher, signed, credential, malformed }).pipe(countPaidCall(flow))
})
