import type { PaymentRequirements } from "@x402/core/types"
import { Effect } from "effect"
import type { ManifestGrant } from "@gateway/domain/payment/OfferVouching"
import { findSessionOffer, type SessionOffer } from "@gateway/domain/payment/SessionOffer"
import type { PaymentRefused } from "./PaymentRefused.ts"
import type { SessionBook, VoucherLease } from "./SessionBook.ts"
import { type SignedVoucher, voucherOutcome, type VoucherOutcome, x402VoucherHeader } from "./SessionVouchers.ts"

/** The `sui-session` offer among a 402's `accepts`, decoded, beside the entry as it came (x402's `accepted` echoes it). */
export const sessionOfferIn = (accepts: ReadonlyArray<PaymentRequirements>) => {
  for (const accepted of accepts) {
    const offer = findSessionOffer([accepted])
    if (offer !== undefined) return { offer, accepted }
  }
  return undefined
}

/** A call paid by a voucher: the gateway's answer, the credential presented, and whether the call was charged. */
export interface SessionCall {
  readonly response: Response
  readonly credential: string
  readonly voucher: SignedVoucher
  readonly charged: boolean
}

/** Calls of a session in flight elsewhere (another request of this agent is answered first) are waited for this often. */
const BUSY_WAIT = "100 millis"
const MAX_BUSY_WAITS = 50
/** A session that takes no more vouchers is replaced this many times per call at most. */
const MAX_REOPENS = 2

/** Presents one voucher under its lease, and settles the lease with what the answer means, whatever happens. */
const presentOnce = <E>(
  book: SessionBook,
  input: PaySessionInput<E>
): Effect.Effect<{ readonly call: SessionCall; readonly outcome: VoucherOutcome }, PaymentRefused | E> =>
  Effect.acquireUseRelease(
    book.lease(input.offer, input.grant, input.price),
    (lease: VoucherLease) =>
      Effect.gen(function*() {
        const credential = x402VoucherHeader(input.accepted, lease.voucher)
        const response = yield* input.present(credential, lease.voucher)
        const outcome = yield* Effect.promise(() => voucherOutcome(response, lease.voucher))
        yield* lease.settle(outcome)
        return { call: { response, credential, voucher: lease.voucher, charged: outcome._tag === "Charged" }, outcome }
      }),
    // An answer never seen: the voucher may have been charged; the next one says (see `SessionBook`).
    (lease) => lease.settle({ _tag: "Unknown" })
  )

export interface PaySessionInput<E> {
  readonly offer: SessionOffer
  /** The offer exactly as the 402 carried it. */
  readonly accepted: PaymentRequirements
  readonly grant: ManifestGrant
  /** The price of this call: the voucher grows by it. */
  readonly price: bigint
  /** Sends the request with this `PAYMENT-SIGNATURE`. */
  readonly present: (credential: string, voucher: SignedVoucher) => Effect.Effect<Response, E>
}

/**
 * Pays one call from the session of the offer's payee and asset (opening one when none can pay it): the voucher
 * for what was charged plus the price. A session that takes no more vouchers is replaced and the call paid from
 * the new one; a call of the same session in flight is waited for; a gateway ahead of the agent (an answer was
 * lost) is caught up with. A seller's failure is answered as is: nothing was charged, and the next call of the
 * session, this request again or another, presents the same voucher.
 */
export const paySession = <E>(book: SessionBook, input: PaySessionInput<E>): Effect.Effect<SessionCall, PaymentRefused | E> =>
  Effect.gen(function*() {
    let reopens = 0
    let waits = 0
    for (;;) {
      const { call, outcome } = yield* presentOnce(book, input)
      if (outcome._tag === "Busy" && waits < MAX_BUSY_WAITS) {
        waits++
        yield* Effect.sleep(BUSY_WAIT)
      } else if ((outcome._tag === "Retire" || outcome._tag === "Behind") && reopens < MAX_REOPENS) {
        reopens++
      } else {
        return call
      }
    }
  })
