import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PaidAnswer, PaymentClaim, RecordedPayment } from "@gateway/domain/payment/RecordedPayment"
import { findPayment, listForGrants, listForService, type PaymentListCursor, type PaymentRecord } from "./PaymentReads.ts"
import { claimPayment, forgetAnswersBefore, reclaimPayment, settleFailed, settleForwarded } from "./PaymentWrites.ts"

/**
 * SQL for the payments that answered 402 challenges. A payment is keyed by its digest alone: a
 * challenge is a price quote that any number of distinct payments may pay, each served once.
 */
export class PaymentRepo extends Context.Service<PaymentRepo, {
  /** The payment recorded for this digest, if any. */
  findPayment(digest: string): Effect.Effect<Option.Option<RecordedPayment>, Unavailable>
  /**
   * Records a verified payment at `now`, as being forwarded or (with a refusal) as refused; false when
   * its digest is already recorded.
   */
  claim(claim: PaymentClaim, now: Date): Effect.Effect<boolean, Unavailable>
  /**
   * Takes a payment back for one more forward: one whose forward failed, or one left in flight
   * longer than `staleMs` by a request that died. False when another request has it.
   */
  reclaim(digest: string, staleMs: number): Effect.Effect<boolean, Unavailable>
  /** Ends a forward that failed (`upstream_failed`, with the seller's status if it answered). */
  settleFailed(digest: string, upstreamStatus: number | null): Effect.Effect<void, Unavailable>
  /** Ends a forward the seller answered, keeping the answer for the payer's retries. */
  settleForwarded(digest: string, answer: Omit<PaidAnswer, "answeredAt">, now: Date): Effect.Effect<void, Unavailable>
  /**
   * Drops the kept answers (body, status, content type) of payments answered before `cutoff`, keeping
   * the payments themselves; how many were dropped.
   */
  forgetAnswersBefore(cutoff: Date): Effect.Effect<number, Unavailable>
  /**
   * The payments made from these grant objects (a signer's), newest first (time, then digest), up to
   * `limit`, after `cursor`. The caller has checked the signer is the owner's.
   */
  listForGrants(grantObjectIds: ReadonlyArray<string>, limit: number, cursor: Option.Option<PaymentListCursor>): Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>
  /** The payments made to a service, newest first, as `listForGrants`. The caller has checked the service is the seller's. */
  listForService(serviceId: string, limit: number, cursor: Option.Option<PaymentListCursor>): Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>
}>()("@gateway/server/PaymentRepo") {
  static readonly layer = Layer.effect(
    PaymentRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return PaymentRepo.of({
        findPayment: findPayment(sql),
        claim: claimPayment(sql),
        reclaim: reclaimPayment(sql),
        settleFailed: settleFailed(sql),
        settleForwarded: settleForwarded(sql),
        forgetAnswersBefore: forgetAnswersBefore(sql),
        listForGrants: listForGrants(sql),
        listForService: listForService(sql)
      })
    })
  )
}
