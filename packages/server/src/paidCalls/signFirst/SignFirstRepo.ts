import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PaidAnswer } from "@gateway/domain/payment/RecordedPayment"
import { reservePayment } from "./SignFirstReserve.ts"
import type { Reservation, ReserveOutcome, SignFirstPayment } from "./SignFirstRows.ts"
import {
  addSponsorSignature,
  banPayer,
  bannedUntil,
  findFailedWithAnswer,
  findSignFirst,
  keepAnswer,
  markFailed,
  markSettled,
  releasePayment,
  unsettledPayments
} from "./SignFirstWrites.ts"

export type { Reservation, ReserveOutcome, SignFirstPayment } from "./SignFirstRows.ts"

/** SQL for sign-first payments (migration 0016): rows of `payments` with `flow = 'sign_first'`, their holds and bans. */
export class SignFirstRepo extends Context.Service<SignFirstRepo, {
  find(digest: string): Effect.Effect<Option.Option<SignFirstPayment>, Unavailable>
  /** The payer's latest payment of this challenge whose settlement failed with the seller's answer kept. */
  findFailedWithAnswer(nonce: string, payer: string): Effect.Effect<Option.Option<SignFirstPayment>, Unavailable>
  /** Reserves a new payment, or takes back one whose seller failed (`not_charged`) for another forward. */
  reserve(r: Reservation): Effect.Effect<ReserveOutcome, Unavailable>
  /** Adds the sponsor's co-signature, kept so that a resubmission after a crash needs no second one. */
  addSponsorSignature(digest: string, signature: string): Effect.Effect<void, Unavailable>
  /** The seller failed: nothing is executed, the holds go, and the same payment may be presented again. */
  release(digest: string, upstreamStatus: number | null): Effect.Effect<void, Unavailable>
  /** The seller answered: its answer is kept before the transaction is executed. */
  keepAnswer(digest: string, answer: PaidAnswer): Effect.Effect<void, Unavailable>
  markSettled(digest: string): Effect.Effect<void, Unavailable>
  markFailed(digest: string, reason: string): Effect.Effect<void, Unavailable>
  /**
   * Sign-first payments left unsettled by a request that died: forwarding unchanged for `forwardingStaleMs`,
   * settling unchanged for `settlingStaleMs` (a live request settles its own sooner).
   */
  unsettled(forwardingStaleMs: number, settlingStaleMs: number): Effect.Effect<ReadonlyArray<SignFirstPayment>, Unavailable>
  /** A payer whose own settlement failed pays upfront only until `until`. */
  ban(payer: string, until: Date, reason: string): Effect.Effect<void, Unavailable>
  bannedUntil(payer: string): Effect.Effect<Option.Option<Date>, Unavailable>
}>()("@gateway/server/SignFirstRepo") {
  static readonly layer = Layer.effect(
    SignFirstRepo,
    Effect.map(SqlClient.SqlClient, (sql) =>
      SignFirstRepo.of({
        find: findSignFirst(sql),
        findFailedWithAnswer: findFailedWithAnswer(sql),
        reserve: reservePayment(sql),
        addSponsorSignature: addSponsorSignature(sql),
        release: releasePayment(sql),
        keepAnswer: keepAnswer(sql),
        markSettled: markSettled(sql),
        markFailed: markFailed(sql),
        unsettled: unsettledPayments(sql),
        ban: banPayer(sql),
        bannedUntil: bannedUntil(sql)
      }))
  )
}
