import { Effect } from "effect"
import { makeSessionBook, type SessionBook } from "@gateway/client/SessionBook"
import type { SessionClose } from "@gateway/client/SessionClosing"
import { type SignedVoucher, voucherOutcome } from "@gateway/client/SessionVouchers"
import { vouchedSessionOffer } from "@gateway/client/SessionVouching"
import type { SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { afterAnswer, answerUnseen, requestBeingPaid, UNKNOWN_REQUEST } from "./PaidRequest.ts"
import type { SuiPayerOptions } from "./SuiPayer.ts"

export interface SessionPayerOptions extends SuiPayerOptions {
  /** How many calls a new session's deposit pays for, within what the grant has left; 100 unless set. */
  readonly sessionCalls?: number
}

/**
 * Pays calls from payment sessions for clients that see only the challenge (the x402 `sui-session` scheme, the
 * mppx `session` method), one session state for both: `@gateway/client`'s `SessionBook`, the agent SDK's own.
 * Each offer is checked as the other payers check theirs (the request being paid for, through `paidFetch` or
 * `payingFor`, and the manifest: origin, service, package, network, asset, per-payment cap, policy); a session
 * is opened (on chain, with the agent's key and gas) when none of the payee and asset can pay the call, and the
 * call's voucher is signed for what was charged plus the price.
 *
 * The session is the request's until its answer: `paidFetch` hands the answer back, so a receipt for the voucher
 * counts it as charged, a seller's failure leaves the amount where it was (the next call presents the same
 * voucher), and a session that takes no more vouchers is replaced, `paidFetch` making the call again once.
 * Outside `paidFetch` the answer is not seen: the session's next call finds out from the gateway.
 */
export const makeSessionPayer = (options: SessionPayerOptions & { readonly book?: SessionBook }) => {
  const { manifest } = options
  const book = options.book ?? makeSessionBook(options)

  const voucherFor = async (offer: SessionOffer, scheme: string): Promise<SignedVoucher> => {
    const request = requestBeingPaid()
    if (request === undefined) throw new Error(`${scheme}: not paid: ${UNKNOWN_REQUEST}`)
    const vouching = vouchedSessionOffer(manifest, offer, Date.now(), request)
    if (vouching._tag === "Refused") throw new Error(`${scheme}: not paid: ${vouching.reason}`)
    // Whatever this request presented before (a client paying its 402 again) frees its session first.
    await answerUnseen()
    const lease = await Effect.runPromise(
      book.lease(offer, vouching.grant, vouching.amount).pipe(Effect.mapError((refused) => new Error(`${scheme}: not paid: ${refused.reason}`)))
    )
    afterAnswer(async (response) => {
      const outcome = response === undefined ? { _tag: "Unknown" as const } : await voucherOutcome(response, lease.voucher)
      await Effect.runPromise(lease.settle(outcome))
      return outcome._tag === "Retire" || outcome._tag === "Behind" || outcome._tag === "Busy" ? "again" : "done"
    })
    return lease.voucher
  }

  /** Closes every session opened here through the gateway, with the final voucher for what was charged. */
  const closeSessions = (): Promise<ReadonlyArray<SessionClose>> => Effect.runPromise(book.closeAll())

  return { voucherFor, closeSessions, sessions: book.sessions, manifest, address: options.signer.toSuiAddress() }
}
export type SessionPayer = ReturnType<typeof makeSessionPayer>
