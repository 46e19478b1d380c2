import { Clock, Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { decidePaidCall, type PaidCallFacts } from "@gateway/domain/payment/PaidCallDecision"
import { rechallengeMessage } from "@gateway/domain/payment/RechallengeMessage"
import type { PaymentClaim } from "@gateway/domain/payment/RecordedPayment"
import { AppConfig } from "../Config.ts"
import type { Forwardable } from "../catalog/Catalog.ts"
import { openNonce } from "./ChallengeNonce.ts"
import { forwardPayment } from "./ForwardPayment.ts"
import { gatherFact } from "./GatherFact.ts"
import { mintChallenge } from "./MintChallenge.ts"
import type { PaidCallRequest } from "./PaidCallRequest.ts"
import type { PaymentCredential } from "./PaymentChallenge.ts"
import { PaymentChallengeKey } from "./PaymentChallengeKey.ts"
import { PaymentRepo } from "./PaymentRepo.ts"
import { type CallTiming, startTiming, timedPart, withServerTiming } from "./ServerTiming.ts"
import { settledAnswer } from "./SettledAnswer.ts"

/** A refused payment whose money moved is recorded before the refusal is answered; its digest is then spent. */
const recordRefused = (record: PaymentClaim | undefined) =>
  record === undefined
    ? Effect.void
    : Effect.flatMap(PaymentRepo, (repo) => Effect.flatMap(Clock.currentTimeMillis, (ms) => repo.claim(record, new Date(ms))))

/**
 * A presented credential: gathers what `decidePaidCall` asks for, in the order it asks, then carries out its
 * decision: the payment forwarded, its kept answer given again, or a refusal (a fresh 402 or an error), recorded
 * first when money moved for nothing.
 */
export const presentPayment = Effect.fn("PaidCalls.presentPayment")(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: PaymentCredential
) {
  const timing = yield* startTiming
  const chain = yield* Chain
  // The chain's share of this call's time, for its Server-Timing header.
  const timedChain = Chain.of({ ...chain, getTransaction: (digest) => timedPart(timing, "chainNs", chain.getTransaction(digest)) })
  const result = yield* decideAndAct(request, target, credential, timing).pipe(Effect.provideService(Chain, timedChain))
  return yield* withServerTiming(result, timing)
})

const decideAndAct = Effect.fnUntraced(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: PaymentCredential,
  timing: CallTiming
) {
  const config = yield* AppConfig
  const { key } = yield* PaymentChallengeKey
  let facts: PaidCallFacts = {
    serviceId: target.entry.id,
    nonce: credential.nonce,
    digest: credential.digest,
    challenge: openNonce(key, credential.nonce),
    nowMs: yield* Clock.currentTimeMillis,
    answerRetentionMs: config.paidAnswerRetentionMs
  }
  let decision = decidePaidCall(facts)
  while (decision._tag === "Gather") {
    const found = yield* gatherFact(decision.need, request, target, credential)
    facts = { ...facts, ...found, nowMs: yield* Clock.currentTimeMillis }
    decision = decidePaidCall(facts)
  }
  switch (decision._tag) {
    case "Rechallenge":
      yield* recordRefused(decision.record)
      return yield* mintChallenge(target.entry, decision.refusal, rechallengeMessage(decision.refusal, decision.record))
    case "Fail":
      yield* recordRefused(decision.record)
      return yield* decision.error
    case "AnswerKept":
      return settledAnswer(target, credential, decision.paid, decision.answer)
    case "Forward":
      return yield* forwardPayment(request, target, credential, decision.paid, timing)
  }
})
