import { Clock, Duration, Effect, Option } from "effect"
import { type SettlementFault, settlementFaultOf } from "@gateway/domain/payment/SettlementFault"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { persist } from "../ForwardPayment.ts"
import { SettlementNode } from "./SettlementNode.ts"
import { type SignFirstPayment, SignFirstRepo } from "./SignFirstRepo.ts"

/** How long a payer whose own settlement failed pays upfront only (DESIGN.md, "Pay only for answers"). */
export const PAYER_UPFRONT_ONLY = Duration.hours(24)

/** What settling came to: the chain executed it, it failed for a reason recorded, or its outcome is not known yet. */
export type SettleOutcome =
  | { readonly _tag: "Settled"; readonly digest: string }
  | { readonly _tag: "Failed"; readonly reason: string; readonly fault: SettlementFault }
  /** The chain could not be reached or refused for a reason not the payer's: the payment stays `settling` for recovery. */
  | { readonly _tag: "Pending"; readonly reason: string }

const fail = Effect.fnUntraced(function*(payment: SignFirstPayment, reason: string) {
  const repo = yield* SignFirstRepo
  yield* persist(repo.markFailed(payment.digest, reason))
  const fault = settlementFaultOf(reason, payment.sponsored)
  // The payer's own failure bans it from sign-first for a day; after the network's it signs the challenge again.
  if (fault === "payer") {
    const until = new Date((yield* Clock.currentTimeMillis) + Duration.toMillis(PAYER_UPFRONT_ONLY))
    yield* Effect.ignore(repo.ban(payment.payer, until, reason))
  }
  if (payment.sponsored) yield* (yield* Sponsorship).settledPayment(payment.txBytes, undefined)
  return { _tag: "Failed", reason, fault } satisfies SettleOutcome
})

/**
 * Executes a sign-first payment whose seller answered (its answer kept, status `settling`): re-simulated first, so
 * a payment the chain would now refuse costs no gas, then executed with the payer's signature and, when sponsored,
 * the sponsor's co-signature kept with it. The effects are finality; nothing waits for a checkpoint. Used on the
 * request's path and by recovery after a crash, which resubmits the same bytes until effects or expiry.
 */
export const settleSignedPayment = (payment: SignFirstPayment, options: { readonly verifiedUnexecuted: boolean } = { verifiedUnexecuted: false }) =>
  settle(payment, options.verifiedUnexecuted).pipe(
    // The chain unreachable at any step: the payment stays `settling`, and recovery asks the chain again.
    Effect.catchTag("UNAVAILABLE", (down) => Effect.succeed<SettleOutcome>({ _tag: "Pending", reason: down.reason }))
  )

/** Executed already (a crash after execution, another replica, or the payer itself): the chain decides. */
const settledBefore = Effect.fnUntraced(function*(payment: SignFirstPayment) {
  const known = yield* (yield* SettlementNode).executed(payment.digest)
  if (Option.isNone(known)) return Option.none<SettleOutcome>()
  if (!known.value.success) return Option.some(yield* fail(payment, `chain: ${known.value.error ?? "failure"}`))
  yield* persist((yield* SignFirstRepo).markSettled(payment.digest))
  return Option.some<SettleOutcome>({ _tag: "Settled", digest: payment.digest })
})

/**
 * `verifiedUnexecuted`: the request verified moments ago that the chain does not know the digest, so it is asked
 * again only if the re-simulation fails (the payer may have executed its own transaction meanwhile).
 */
const settle = Effect.fnUntraced(function*(payment: SignFirstPayment, verifiedUnexecuted: boolean) {
  const node = yield* SettlementNode
  const repo = yield* SignFirstRepo
  const sponsorship = yield* Sponsorship

  if (!verifiedUnexecuted) {
    const before = yield* settledBefore(payment)
    if (Option.isSome(before)) return before.value
  }
  if ((yield* node.currentEpoch) > payment.expiresEpoch) return yield* fail(payment, "epoch: the signed payment expired with its epoch before it was executed")

  const simulated = yield* node.simulate(payment.txBytes)
  if (!simulated.success) {
    const before = verifiedUnexecuted ? yield* settledBefore(payment) : Option.none<SettleOutcome>()
    return Option.isSome(before) ? before.value : yield* fail(payment, `simulation: ${simulated.error ?? "failure"}`)
  }

  // A sponsored payment was co-signed before its seller was asked (PresentSignedPayment): both signatures are kept.
  if (payment.sponsored && payment.signatures.length < 2) return yield* fail(payment, "sponsor: the payment was never co-signed")
  const executed = yield* node.execute(payment.txBytes, payment.signatures).pipe(
    Effect.map((settled) => ({ _tag: "Executed" as const, settled })),
    Effect.catchTag("SettleRefused", (refused) => Effect.succeed({ _tag: "Refused" as const, reason: refused.reason })),
    Effect.catchTag("UNAVAILABLE", (down) => Effect.succeed({ _tag: "Unknown" as const, reason: down.reason }))
  )
  switch (executed._tag) {
    case "Unknown":
      // Sent or not, the chain will say: recovery asks it by digest and resubmits the same bytes until effects or expiry.
      return { _tag: "Pending", reason: executed.reason } satisfies SettleOutcome
    case "Refused":
      return settlementFaultOf(executed.reason, payment.sponsored) === "payer"
        ? yield* fail(payment, `chain: refused: ${executed.reason}`)
        : ({ _tag: "Pending", reason: executed.reason } satisfies SettleOutcome)
    case "Executed": {
      if (payment.sponsored) yield* sponsorship.settledPayment(payment.txBytes, executed.settled.gas)
      if (!executed.settled.success) return yield* fail({ ...payment, sponsored: false }, `chain: ${executed.settled.error ?? "failure"}`)
      yield* persist(repo.markSettled(payment.digest))
      return { _tag: "Settled", digest: executed.settled.digest } satisfies SettleOutcome
    }
  }
})
