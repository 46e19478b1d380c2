import { Clock, Effect, Option } from "effect"
import { Conflict, Invalid, Unavailable } from "@gateway/domain/Errors"
import { policyAllows } from "@gateway/domain/Policy"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { sellerAnswerSettles } from "@gateway/domain/payment/SellerAnswerSettles"
import { checkVoucher, type VoucherRefusal, type VoucherTerms } from "@gateway/domain/payment/SessionVoucherCheck"
import { AppConfig } from "../../Config.ts"
import type { Forwardable } from "../../catalog/Catalog.ts"
import { SignerRepo } from "../../signers/SignerRepo.ts"
import { callSeller } from "../CallSeller.ts"
import type { PaidCallRequest } from "../PaidCallRequest.ts"
import { type CallTiming, startTiming, timedPart, withServerTiming } from "../ServerTiming.ts"
import { knownSession, withTopUps } from "./KnownSession.ts"
import { sessionAnswer, voucherReference } from "./SessionAnswer.ts"
import { PaymentSessionRepo, type SessionRecord } from "./PaymentSessionRepo.ts"
import { voucherSignedBy } from "./VoucherSignature.ts"

/** A voucher as presented, in either dialect. */
export interface SessionCredential {
  readonly sessionId: string
  readonly cumulative: bigint
  readonly signature: Uint8Array
  /** The service the payer says it pays (x402's echoed offer, MPP's challenge). */
  readonly serviceId: string
}

const refused = (r: VoucherRefusal) =>
  r.kind === "invalid" ? new Invalid({ message: r.message, reason: r.reason }) : new Conflict({ message: r.message, reason: r.reason })

/** The seller failed: nothing was charged, and the same voucher pays the retry (its amount is carried forward). */
const sellerFailed = (detail: string) =>
  new Unavailable({
    message: "The seller failed to answer; this voucher was not charged. Present the same voucher again to retry",
    reason: `upstream_${detail}_nothing_charged_retry_with_the_same_voucher`
  })

const inFlight = () =>
  new Conflict({ message: "Another call of this session is in flight: a session pays one call at a time; retry when it is answered", reason: "session_busy" })

/** Whether the voucher may pay this call now, reading the chain again for a top-up when it is above the known deposit. */
const judge = Effect.fnUntraced(function*(record: SessionRecord, terms: VoucherTerms, cumulative: bigint) {
  const nowMs = BigInt(yield* Clock.currentTimeMillis)
  const first = checkVoucher(record.session, record.grant, terms, cumulative, nowMs)
  if (first.ok || first.refusal.reason !== "voucher_above_deposit") return first
  const topped = yield* withTopUps(record)
  return checkVoucher(topped.session, topped.grant, terms, cumulative, nowMs)
})

/** The owner's policy snapshot of the session's grant must allow this call, as for any payment. */
const policyChecked = Effect.fnUntraced(function*(record: SessionRecord, target: Forwardable) {
  const grant = yield* (yield* SignerRepo).findPayingGrant(record.session.grantObjectId)
  const { entry } = target
  const call = { serviceId: entry.id, method: entry.method, path: entry.path, recipient: entry.payTo, asset: entry.asset }
  if (Option.isNone(grant) || !policyAllows(grant.value.policyRules, call, normalizeCoinType)) {
    return yield* new Invalid({ message: "The owner's policy for this grant does not allow this call", reason: "policy_refuses_call" })
  }
})

/**
 * Forwards the call the admitted voucher pays, once: answered (a status that settles), the voucher is charged;
 * the seller failed, the call does not count and the same voucher may pay the retry. Uninterruptible from the
 * admission to its record, so a caller who hangs up never strands the session.
 */
const forwardOnce = (request: PaidCallRequest, target: Forwardable, record: SessionRecord, cumulative: bigint, timing: CallTiming) =>
  Effect.uninterruptible(Effect.gen(function*() {
    const repo = yield* PaymentSessionRepo
    const { sessionId } = record.session
    const answer = yield* timedPart(timing, "sellerNs", callSeller(request, target, voucherReference(sessionId, cumulative)))
    if (answer._tag !== "Answered" || !sellerAnswerSettles(answer.status)) {
      yield* repo.release(sessionId, cumulative)
      return yield* sellerFailed(answer._tag === "TooLarge" ? "answer_too_large" : answer._tag === "Forbidden" ? "address_refused" : "failed")
    }
    yield* repo.charge(sessionId, cumulative)
    return sessionAnswer(target, { sessionId, cumulative, payer: record.delegate }, answer, new Date(yield* Clock.currentTimeMillis))
  }))

const present = Effect.fnUntraced(function*(request: PaidCallRequest, target: Forwardable, credential: SessionCredential, timing: CallTiming) {
  const config = yield* AppConfig
  const repo = yield* PaymentSessionRepo
  if (credential.serviceId !== target.entry.id) {
    return yield* new Invalid({ message: "This voucher's credential names another service than the one called", reason: "voucher_for_another_service" })
  }
  // The signature first: nothing about the session is told to, or stored for, someone who does not hold its key.
  const provenBy = (key: Uint8Array) => voucherSignedBy(credential.sessionId, key, credential.cumulative, credential.signature)
  const record = yield* knownSession(credential.sessionId, provenBy)
  if (!provenBy(record.voucherKey)) {
    return yield* new Invalid({ message: "The voucher's signature is not the session key's over this session and amount", reason: "voucher_signature_invalid" })
  }
  const terms: VoucherTerms = { payTo: target.entry.payTo, asset: normalizeCoinType(target.entry.asset), price: BigInt(target.entry.price) }
  const judged = yield* judge(record, terms, credential.cumulative)
  if (!judged.ok) return yield* refused(judged.refusal)
  yield* policyChecked(record, target)
  const nowMs = yield* Clock.currentTimeMillis
  const admitted = yield* repo.admit({
    sessionId: record.session.sessionId,
    cumulative: credential.cumulative,
    signature: credential.signature,
    price: terms.price,
    nowMs,
    // A forward outlives its timeout only if the replica died: then the session frees itself.
    untilMs: nowMs + 2 * config.upstreamTimeoutMs
  })
  if (!admitted) {
    // Taken meanwhile: the same check on the session as it is now says why, or another call holds it.
    const now = yield* knownSession(credential.sessionId, provenBy)
    const again = checkVoucher(now.session, now.grant, terms, credential.cumulative, BigInt(nowMs))
    return yield* again.ok ? inFlight() : refused(again.refusal)
  }
  return yield* forwardOnce(request, target, record, credential.cumulative, timing)
})

/**
 * A call paid by a session voucher (x402 `sui-session`, MPP `session`): checked without the chain (the session's
 * key, its payee and asset, the amount's growth by the price within the deposit, the session's and its grant's
 * state), taken by one compare-and-set statement, forwarded once and charged when the seller answered.
 */
export const presentVoucher = Effect.fn("PaidCalls.presentVoucher")(function*(
  request: PaidCallRequest,
  target: Forwardable,
  credential: SessionCredential
) {
  const timing = yield* startTiming
  return yield* withServerTiming(yield* present(request, target, credential, timing), timing)
})
