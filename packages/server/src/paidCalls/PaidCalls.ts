import { Context, Duration, Effect, Layer, Schedule } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { AppConfig } from "../Config.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { BatchedLimits } from "../limits/BatchedLimits.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { SignerRepo } from "../signers/SignerRepo.ts"
import { Sponsorship } from "../sponsorship/Sponsorship.ts"
import { UpstreamForwarder } from "../upstream/UpstreamForwarder.ts"
import { ChallengeTemplates } from "./ChallengeTemplates.ts"
import { handlePaidCall } from "./HandlePaidCall.ts"
import type { PaidCallRefusal, PaidCallRequest, PaidCallResult } from "./PaidCallRequest.ts"
import { PaymentChallengeKey } from "./PaymentChallengeKey.ts"
import { PaymentRepo } from "./PaymentRepo.ts"
import { recoverSignedPayments } from "./signFirst/RecoverSignedPayments.ts"
import { SettlementNode } from "./signFirst/SettlementNode.ts"
import { SignFirstRepo } from "./signFirst/SignFirstRepo.ts"
import { PaymentSessionRepo } from "./sessions/PaymentSessionRepo.ts"
import { sweepPaidAnswers } from "./SweepPaidAnswers.ts"
import { withServices } from "../UseCase.ts"

/** How often unsettled sign-first payments are looked for. */
const SIGN_FIRST_RECOVERY_INTERVAL = Duration.seconds(5)

/** What the use cases take from their context. */
type UseCaseServices =
  | AppConfig
  | Catalog
  | PaymentRepo
  | SignerRepo
  | Chain
  | PublicUrl
  | UpstreamForwarder
  | RateLimits
  | BatchedLimits
  | PaymentChallengeKey
  | ChallengeTemplates
  | SignFirstRepo
  | SettlementNode
  | PaymentSessionRepo
  | Sponsorship

/**
 * Paid calls: a call without a valid payment gets a 402 challenge (x402 and
 * MPP), a price quote whose nonce names the service; a call with one is
 * verified on chain, proven to come from the delegate that paid (its signature
 * over this request), recorded (digest PRIMARY KEY, so a replay fails even
 * across replicas) and forwarded once to the seller. Each distinct payment of a
 * challenge is served once: consuming the nonce instead would let anyone who
 * read a payer's PaymentMade pay the same nonce, present first, and take its
 * call. A forward that fails is recorded, and the same credential may be
 * presented again to retry it; the seller's answer is kept, and the same
 * credential gets it again within `paidAnswerRetentionMs`. Every
 * `storeSweepIntervalMs` the answers kept longer are dropped (their payments
 * stay), on every replica (the update is idempotent).
 */
export class PaidCalls extends Context.Service<PaidCalls, {
  handle(request: PaidCallRequest): Effect.Effect<PaidCallResult, PaidCallRefusal>
}>()("@gateway/server/PaidCalls") {
  static readonly layer = Layer.effect(
    PaidCalls,
    Effect.gen(function*() {
      // Only these services, so each call keeps its own clock, tracer and parent span.
      const services = Context.pick(
        AppConfig,
        Catalog,
        PaymentRepo,
        SignerRepo,
        Chain,
        PublicUrl,
        UpstreamForwarder,
        RateLimits,
        BatchedLimits,
        PaymentChallengeKey,
        ChallengeTemplates,
        SignFirstRepo,
        SettlementNode,
        PaymentSessionRepo,
        Sponsorship
      )(yield* Effect.context<UseCaseServices>())
      const config = yield* AppConfig
      yield* Effect.forkScoped(
        Effect.repeat(Effect.provideContext(sweepPaidAnswers(), services), Schedule.spaced(Duration.millis(config.storeSweepIntervalMs)))
      )
      // At start, then every few seconds: what a crash or an outage left unsettled is executed or released.
      yield* Effect.forkScoped(
        Effect.repeat(Effect.ignore(Effect.provideContext(recoverSignedPayments(), services)), Schedule.spaced(SIGN_FIRST_RECOVERY_INTERVAL))
      )
      return PaidCalls.of({ handle: withServices(services)(handlePaidCall) })
    })
  ).pipe(
    // The templates are exposed too: the Node server answers plain 402s from them (http/AnswerChallenge.ts).
    Layer.provideMerge(ChallengeTemplates.layer),
    Layer.provide(Layer.mergeAll(PaymentChallengeKey.layer, SignFirstRepo.layer, SettlementNode.layer)),
    Layer.provideMerge(PaymentSessionRepo.layer)
  )
}
