import { Option } from "effect"
import { normalizeCoinType } from "../chain/SpendAccountModule.ts"
import { Conflict, Unavailable, Unverified } from "../Errors.ts"
import { policyAllows } from "../Policy.ts"
import type { PayingGrant } from "./PayingGrant.ts"
import type { PaidAnswer, PaymentClaim, PaymentRefusal, PaymentStatus, RecordedPayment } from "./RecordedPayment.ts"

/** The terms a challenge's nonce carries, sealed under the gateway's key: its service, the revision whose terms it asks, its expiry. */
export interface ChallengeClaims {
  readonly serviceId: string
  readonly revision: number
  readonly expiresAtMs: number
}

/** What the challenge asked for: the terms of the revision it was minted under, even if the service changed since. */
export interface AskedCall {
  readonly serviceId: string
  readonly name: string
  readonly method: string
  readonly path: string
  /** In the asset's atomic units. */
  readonly price: bigint
  readonly payTo: string
  readonly asset: string
}

/**
 * A payment as the chain shows it, verified against the asked terms: final, succeeded, one `PaymentMade` with the
 * asked amount, recipient and nonce, sent by the grant's delegate.
 */
export interface ChainPayment {
  readonly delegate: string
  readonly grantObjectId: string
  readonly poolId: string
  readonly amount: bigint
  /** When the chain accepted it (its checkpoint's time); 0 or less when the chain gave none. */
  readonly paidAtMs: number
}

/** Who paid for a call and how much, as its receipt reports it. */
export interface PaidBy {
  readonly payer: string
  readonly amount: string
}

/** What the service gathers when `decidePaidCall` asks for it, and only then. */
export interface GatheredFacts {
  readonly asked?: AskedCall
  /** The payment recorded under the digest; none when it is new. */
  readonly recorded?: Option.Option<RecordedPayment>
  readonly paid?: ChainPayment
  /** Whether the credential's proof is the signature of the payer the decision named over this request. */
  readonly proven?: boolean
  /** The grant the payment came from, when this gateway provisioned it. */
  readonly grant?: Option.Option<PayingGrant>
  /** Whether this request holds the payment for a forward (it recorded it, or took it back); false when another request has it. */
  readonly held?: boolean
}

/** What the service knows of a presented payment: the request's, and what it has gathered so far. */
export interface PaidCallFacts extends GatheredFacts {
  /** The service the call is addressed to. */
  readonly serviceId: string
  /** The presented nonce, and the digest of the transaction presented as paying it. */
  readonly nonce: string
  readonly digest: string
  /** The nonce's terms; undefined when this gateway did not mint it (forged, altered, malformed). */
  readonly challenge: ChallengeClaims | undefined
  /** The time of this decision, and how long after the seller answered its answer is given again. */
  readonly nowMs: number
  readonly answerRetentionMs: number
}

/** The fact the decision needs next, with what gathering it takes. */
export type PaidCallNeed =
  | { readonly _tag: "AskedCall"; readonly serviceId: string; readonly revision: number }
  | { readonly _tag: "RecordedPayment" }
  /** The transaction, verified against these terms. */
  | {
    readonly _tag: "ChainPayment"
    readonly amount: bigint
    readonly recipient: string
    readonly nonce: string
    /** The challenge's expiry: a digest the chain still does not know well after it was mistyped or never sent. */
    readonly challengeExpiresAtMs: number
  }
  /** Whether the proof is this payer's signature. */
  | { readonly _tag: "Possession"; readonly payer: string }
  | { readonly _tag: "PayingGrant"; readonly grantObjectId: string }
  /** Record the new payment as being forwarded: held unless another request recorded it first. */
  | { readonly _tag: "Claim"; readonly claim: PaymentClaim }
  /** Take the recorded payment back for one more forward: held unless another request has it. */
  | { readonly _tag: "Reclaim" }

/** Refusals answered with a fresh challenge whose `reason` they are: nothing is forwarded. */
export const RECHALLENGE_REFUSALS = [
  "unknown_challenge",
  "payment_for_another_challenge",
  "payment_proof_invalid",
  "challenge_expired",
  "payment_refused_challenge_expired",
  "payment_refused_unknown_grant",
  "payment_refused_wrong_asset",
  "payment_refused_policy",
  "payment_refused_earlier"
] as const
export type RechallengeRefusal = typeof RECHALLENGE_REFUSALS[number]

/** Refusals answered with an error. */
export const FAIL_REFUSALS = [
  "paid_answer_expired",
  "payment_in_flight",
  "sign_first_payment",
  "chain_gave_no_timestamp",
  "unknown_grant",
  "wrong_asset",
  "policy"
] as const
export type FailRefusal = typeof FAIL_REFUSALS[number]

/** Every reason the decision refuses a presented payment for. */
export const PAID_CALL_REFUSALS = [...RECHALLENGE_REFUSALS, ...FAIL_REFUSALS] as const
export type PaidCallRefusal = typeof PAID_CALL_REFUSALS[number]

type PaidCallError = Conflict | Unavailable | Unverified

/**
 * What a refused payment whose money moved must say: the chain already paid the recipient. Its record is in the
 * owner's payments, or only this gateway's for a grant it did not provision (no owner here lists it).
 */
const movedForNothing = (recorded: "in the owner's payments" | "by this gateway") =>
  `Its money has moved to the recipient and is recorded as refused ${recorded}; it does not pay this call, and only the recipient can return it.`

const FAILURES: { readonly [R in FailRefusal]: (askedAsset: string) => PaidCallError } = {
  paid_answer_expired: () => new Conflict({ message: "This payment was answered, and its answer is no longer kept", reason: "paid_answer_expired" }),
  payment_in_flight: () => new Conflict({ message: "This payment is being used by another request", reason: "payment_in_flight" }),
  sign_first_payment: () =>
    new Conflict({
      message: "This digest is a sign-first payment's: present its signed transaction (x402 exact), not the digest",
      reason: "sign_first_payment"
    }),
  chain_gave_no_timestamp: () => new Unavailable({ message: "The chain did not say when the payment was made", reason: "chain_gave_no_timestamp" }),
  unknown_grant: () =>
    new Unverified({
      message: `The payment came from a grant this gateway did not provision. ${movedForNothing("by this gateway")} Pay from a grant created through this gateway`,
      reason: "grant: unknown to this gateway"
    }),
  wrong_asset: (asset) =>
    new Unverified({
      message: `The payment was made in another asset than the challenge asks (${asset}). ${movedForNothing("in the owner's payments")} Pay a fresh challenge in ${asset}`,
      reason: `asset: expected ${asset}`
    }),
  policy: () =>
    new Unverified({
      message: `The owner's policy does not allow this call. ${movedForNothing("in the owner's payments")} Ask the owner to allow this service, or pay from a grant whose policy does`,
      reason: "policy: service not allowed"
    })
}

export type PaidCallDecision =
  /** Gather this fact and decide again. */
  | { readonly _tag: "Gather"; readonly need: PaidCallNeed }
  /**
   * A fresh challenge. `record`, when set, is written first: money moved for nothing, so the payment is kept for
   * the owner to reconcile and its digest is spent.
   */
  | { readonly _tag: "Rechallenge"; readonly refusal: RechallengeRefusal; readonly record: PaymentClaim | undefined }
  /** An error, after writing `record` as for `Rechallenge`. */
  | { readonly _tag: "Fail"; readonly refusal: FailRefusal; readonly error: PaidCallError; readonly record: PaymentClaim | undefined }
  /** Forward the call, its payment held by this request, to the seller. */
  | { readonly _tag: "Forward"; readonly paid: PaidBy }
  /** Give the seller's kept answer again; the seller is not called. */
  | { readonly _tag: "AnswerKept"; readonly answer: PaidAnswer; readonly paid: PaidBy }

const SIGN_FIRST_STATUSES: ReadonlyArray<PaymentStatus> = ["settling", "settled", "not_charged", "settlement_failed"]

const gather = (need: PaidCallNeed): PaidCallDecision => ({ _tag: "Gather", need })

const rechallenge = (refusal: RechallengeRefusal, record?: PaymentClaim): PaidCallDecision => ({ _tag: "Rechallenge", refusal, record })

const fail = (refusal: FailRefusal, asked: AskedCall, record?: PaymentClaim): PaidCallDecision => ({
  _tag: "Fail",
  refusal,
  error: FAILURES[refusal](asked.asset),
  record
})

/** A payment recorded already: answered again, or forwarded again when its forward failed or its request died. */
const decideRecorded = (facts: PaidCallFacts, asked: AskedCall, recorded: RecordedPayment): PaidCallDecision => {
  // A transaction pays exactly one nonce (its one PaymentMade's memo), and the nonce names the service: a
  // payment answers only the challenge it paid, never a fresh one or another service's.
  if (recorded.nonce !== facts.nonce) return rechallenge("payment_for_another_challenge")
  // Digest and nonce are public: only the delegate that paid may use the payment again, for this same request.
  if (facts.proven === undefined) return gather({ _tag: "Possession", payer: recorded.payer })
  if (!facts.proven) return rechallenge("payment_proof_invalid")
  if (recorded.status === "refused") return rechallenge(`payment_refused_${recorded.refusal ?? "earlier"}`)
  // A sign-first payment is settled by the gateway, and answered only to its signed transaction.
  if (SIGN_FIRST_STATUSES.some((s) => s === recorded.status)) return fail("sign_first_payment", asked)
  const paid = { payer: recorded.payer, amount: recorded.amount }
  if (recorded.status === "forwarded") {
    const kept = Option.filter(recorded.answer, (a) => facts.nowMs - a.answeredAt.getTime() <= facts.answerRetentionMs)
    return Option.isSome(kept) ? { _tag: "AnswerKept", answer: kept.value, paid } : fail("paid_answer_expired", asked)
  }
  if (facts.held === undefined) return gather({ _tag: "Reclaim" })
  return facts.held ? { _tag: "Forward", paid } : fail("payment_in_flight", asked)
}

/** What a verified payment records: the asked revision's terms, the grant's asset when the grant is ours. */
const claimOf = (
  facts: PaidCallFacts,
  challenge: ChallengeClaims,
  asked: AskedCall,
  paid: ChainPayment,
  grant: PayingGrant | undefined,
  refusal: PaymentRefusal | null
): PaymentClaim => ({
  digest: facts.digest,
  nonce: facts.nonce,
  serviceId: facts.serviceId,
  revision: challenge.revision,
  serviceName: asked.name,
  asset: grant?.coinType ?? asked.asset,
  recipient: asked.payTo,
  grantObjectId: paid.grantObjectId,
  grantId: grant?.id ?? null,
  payer: paid.delegate,
  amount: paid.amount.toString(),
  refusal
})

/** A payment not recorded yet: verified on chain against the challenge's own terms, then accepted or refused. */
const decideNew = (facts: PaidCallFacts, challenge: ChallengeClaims, asked: AskedCall): PaidCallDecision => {
  if (facts.paid === undefined) return gather({
      _tag: "ChainPayment",
      amount: asked.price,
      recipient: asked.payTo,
      nonce: facts.nonce,
      challengeExpiresAtMs: challenge.expiresAtMs
    })
  const paid = facts.paid
  // Before anything is written: a credential that does not prove possession leaves the payment redeemable by its payer.
  if (facts.proven === undefined) return gather({ _tag: "Possession", payer: paid.delegate })
  if (!facts.proven) return rechallenge("payment_proof_invalid")
  if (facts.grant === undefined) return gather({ _tag: "PayingGrant", grantObjectId: paid.grantObjectId })
  const grant = Option.getOrUndefined(facts.grant)
  // From here money moved but may not pay for the call: a refused or late payment is recorded, so the owner can
  // reconcile it, and its digest is spent.
  const claim = (refusal: PaymentRefusal | null) => claimOf(facts, challenge, asked, paid, grant, refusal)
  if (!(paid.paidAtMs > 0)) return fail("chain_gave_no_timestamp", asked)
  if (paid.paidAtMs > challenge.expiresAtMs) return rechallenge("challenge_expired", claim("challenge_expired"))
  if (grant === undefined || grant.poolId !== paid.poolId) return fail("unknown_grant", asked, claim("unknown_grant"))
  if (normalizeCoinType(grant.coinType) !== normalizeCoinType(asked.asset)) return fail("wrong_asset", asked, claim("wrong_asset"))
  const call = { serviceId: asked.serviceId, method: asked.method, path: asked.path, recipient: asked.payTo, asset: asked.asset }
  if (!policyAllows(grant.policyRules, call, normalizeCoinType)) return fail("policy", asked, claim("policy"))
  if (facts.held === undefined) return gather({ _tag: "Claim", claim: claim(null) })
  return facts.held ? { _tag: "Forward", paid: { payer: paid.delegate, amount: paid.amount.toString() } } : fail("payment_in_flight", asked)
}

/**
 * Whether a presented payment buys the call, and what the service does about it. Each distinct payment of a
 * challenge is served once. A payment recorded under its digest is answered again or retried, for the challenge it
 * paid and to its payer's proof only, however late. A new one must match the challenge's own terms on chain, be
 * proven to come from the delegate that paid, and have come in time (at the chain's time, not the time it is
 * presented), from a grant this gateway provisioned and that grant's own pool, in the challenge's asset (a cheaper
 * coin must not pay a dearer price), within the owner's policy; pause, revoke, grant expiry and caps were enforced
 * by the chain when it accepted the payment.
 *
 * Facts are asked for one at a time (`Gather`), cheapest first, so a presentation refused by what is known costs
 * nothing more: a forged nonce no read, a payment for another challenge no signature check, a bad proof no grant
 * read, and nothing is written before the proof holds.
 */
export const decidePaidCall = (facts: PaidCallFacts): PaidCallDecision => {
  const { challenge } = facts
  if (challenge === undefined || challenge.serviceId !== facts.serviceId) return rechallenge("unknown_challenge")
  if (facts.asked === undefined) return gather({ _tag: "AskedCall", serviceId: challenge.serviceId, revision: challenge.revision })
  const asked = facts.asked
  // By digest alone: other payments of the same challenge are other calls, not this one.
  if (facts.recorded === undefined) return gather({ _tag: "RecordedPayment" })
  return Option.match(facts.recorded, {
    onSome: (recorded) => decideRecorded(facts, asked, recorded),
    onNone: () => decideNew(facts, challenge, asked)
  })
}
