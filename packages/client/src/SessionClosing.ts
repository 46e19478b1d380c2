import { Effect, Schema } from "effect"
import { ClosedSession } from "@gateway/domain/PaymentSessionView"
import type { SessionSlot } from "./SessionSlot.ts"
import { reasonOf, signVoucher } from "./SessionVouchers.ts"

/** What closing one session came to: closed on chain (the rest of its deposit back in the pool), or why not. */
export type SessionClose =
  | {
    readonly _tag: "Closed"
    readonly sessionId: string
    /** The digest of `claim_and_close`; what the seller got in all, and what went back to the pool. */
    readonly digest: string
    readonly claimed: bigint
    readonly returned: bigint
  }
  | { readonly _tag: "NotClosed"; readonly sessionId: string; readonly reason: string }

const decodeClosed = Schema.decodeUnknownEffect(ClosedSession)

/** POSTs the final voucher for `cumulative`; the gateway's answer, or its status and reason. */
const postFinal = (apiBaseUrl: string, slot: SessionSlot, cumulative: bigint) =>
  Effect.gen(function*() {
    const { sessionId, sessionKey } = slot.session
    const final = yield* signVoucher(sessionKey, sessionId, cumulative, true)
    const url = new URL(`v1/sessions/${sessionId}/close`, apiBaseUrl.replace(/\/?$/, "/"))
    const response = yield* Effect.tryPromise(() =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cumulativeAmount: cumulative.toString(), signature: final.signature })
      })
    )
    if (!response.ok) return { _tag: "Refused", status: response.status, reason: yield* Effect.promise(() => reasonOf(response)) } as const
    const closed = yield* decodeClosed(yield* Effect.tryPromise(() => response.json()))
    return { _tag: "Closed", closed } as const
  })

/**
 * Closes one session through the gateway with its final voucher for what was charged. A voucher whose answer
 * was lost may have been charged too: when the gateway says the final one is below what was used, it is that one.
 * A session someone else closed already (its payee, or anyone after its expiry) counts as closed.
 */
export const closeSlot = (apiBaseUrl: string, slot: SessionSlot): Effect.Effect<SessionClose> =>
  Effect.gen(function*() {
    const { sessionId } = slot.session
    let answer = yield* postFinal(apiBaseUrl, slot, slot.charged)
    if (answer._tag === "Refused" && answer.reason === "final_voucher_below_used" && slot.uncertain !== undefined) {
      answer = yield* postFinal(apiBaseUrl, slot, slot.uncertain)
    }
    if (answer._tag === "Refused") {
      if (answer.reason === "session_closed") {
        slot.retired = true
        slot.closed = true
      }
      return { _tag: "NotClosed", sessionId, reason: `${answer.status} ${answer.reason}` } satisfies SessionClose
    }
    slot.retired = true
    slot.closed = true
    slot.charged = BigInt(answer.closed.claimed)
    return {
      _tag: "Closed",
      sessionId,
      digest: answer.closed.digest,
      claimed: BigInt(answer.closed.claimed),
      returned: BigInt(answer.closed.returned)
    } satisfies SessionClose
  }).pipe(Effect.catch((error) => Effect.succeed({ _tag: "NotClosed", sessionId: slot.session.sessionId, reason: String(error) } satisfies SessionClose)))
